export type CertificateErrorReason = 'bad_password' | 'unreadable' | 'no_key';

export class CertificateError extends Error {
  constructor(
    readonly reason: CertificateErrorReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'CertificateError';
  }
}
