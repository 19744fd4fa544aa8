import { PNG } from 'pngjs';
import QRCode, { type QRCodeToBufferOptions } from 'qrcode';

/** What a reader of a PNG sees (RGBA pixels), whatever its encoding: filters and colour type are the service's choice. */
export function pngPixels(png: Buffer): Buffer {
  return PNG.sync.read(png).data;
}

/** The pixels of the QR symbol of `text` at the given level, with a 4-module quiet zone and 10 px a module. */
export async function qrPixels(text: string, level: 'M' | 'L'): Promise<Buffer> {
  // Unfiltered rows: the cheapest encoding to write (pngjs tries every filter by default); only the pixels count.
  const encoding = { filterType: 0 } as QRCodeToBufferOptions['rendererOpts'];
  return pngPixels(await QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: level, margin: 4, scale: 10, rendererOpts: encoding }));
}
