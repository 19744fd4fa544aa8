export type QrFormat = 'png' | 'svg';

export interface QrImage {
  format: QrFormat;
  body: Buffer | string;
}
