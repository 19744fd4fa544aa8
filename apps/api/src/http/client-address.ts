import type { Request } from 'express';

/** The client's address for throttling: req.ip honours X-Forwarded-For only as far as `trust proxy` allows. */
export function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}
