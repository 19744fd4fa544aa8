import type { Response } from 'express';
import { QR_CONTENT_TYPES } from './render-qr';
import type { QrImage } from '@vf/contract';

/** A record's QR never changes once generated, so the image may be cached privately (it is account data). */
export function sendQrImage(res: Response, image: QrImage): void {
  res.setHeader('Cache-Control', 'private, max-age=86400');
  res.setHeader('Vary', 'Accept');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.type(QR_CONTENT_TYPES[image.format]).send(image.body);
}
