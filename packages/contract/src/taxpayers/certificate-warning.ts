/** Something about a taxpayer's certificate the client should check (whose NIF it is, when it expires). */
export interface CertificateWarning {
  code: string;
  message: string;
}
