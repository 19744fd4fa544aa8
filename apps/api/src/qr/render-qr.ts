import type { QrFormat } from '@vf/contract';
import type { QRCodeToBufferOptions } from 'qrcode';
import { loadOnce } from '../shared/load-once';

// Orden HAC/1177/2024 art. 20-21 and AEAT's QR specification §2-3: ISO/IEC 18004 with error-correction level M.
// A 4-module quiet zone is the standard's minimum; at the 30-40 mm print size it is well over the 2 mm the authority
// asks for.
export const QR_OPTIONS = { errorCorrectionLevel: 'M', margin: 4 } as const;
/** 10 px per module: sharp enough to print at 40 mm from a browser. */
const PNG_SCALE = 10;
// Grayscale rows with the "Up" filter: a QR symbol's rows repeat `scale` times, so most filter to zeros. Half the
// CPU of pngjs's default (trying every filter on RGBA rows) and half the bytes. qrcode hands rendererOpts to pngjs
// whole; its typings list only the deflate settings.
const PNG_ENCODING = { filterType: 2, colorType: 0 } as QRCodeToBufferOptions['rendererOpts'];

// The encoder and its PNG writer load with the first QR asked for: a process that only registers never holds them.
const qrcode = loadOnce(async () => (await import('qrcode')).default);

export async function renderQrPng(qrUrl: string): Promise<Buffer> {
  // A copy: qrcode writes the image's width and height into the rendererOpts it is given.
  return (await qrcode()).toBuffer(qrUrl, { ...QR_OPTIONS, type: 'png', scale: PNG_SCALE, rendererOpts: { ...PNG_ENCODING } });
}

export async function renderQrSvg(qrUrl: string): Promise<string> {
  return (await qrcode()).toString(qrUrl, { ...QR_OPTIONS, type: 'svg' });
}

export const QR_CONTENT_TYPES: Record<QrFormat, string> = { png: 'image/png', svg: 'image/svg+xml' };

export type QrFormatChoice = { format: QrFormat } | { problem: 'unknown_format' | 'not_acceptable' };

/** ?format= wins; otherwise the Accept header (PNG when it allows both or is absent). */
export function chooseQrFormat(format: unknown, accepts: (types: string[]) => string | false): QrFormatChoice {
  if (format !== undefined) return format === 'png' || format === 'svg' ? { format } : { problem: 'unknown_format' };
  const preferred = accepts(['image/png', 'image/svg+xml']);
  if (preferred === false) return { problem: 'not_acceptable' };
  return { format: preferred === 'image/svg+xml' ? 'svg' : 'png' };
}
