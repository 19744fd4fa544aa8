import express, { type Request, type RequestHandler } from 'express';
import { ApiError } from '../errors/api-error';
import { verifyJsonShape } from './json-shape';

const parseJson = express.json({ limit: '1mb', verify: verifyJsonShape });
// A batch carries up to 1,000 invoices (MAX_BATCH_ITEMS) of up to about 10 KB each at their largest.
const parseBatch = express.json({ limit: '10mb', verify: verifyJsonShape });
const BATCH_PATH = '/invoices/batch';

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Parses JSON bodies up to 1 MB (10 MB for a batch) whose structure stays within JSON_SHAPE_LIMITS (checked on the
 * bytes, before parsing); a body in any other format is refused with 415 rather than ignored.
 */
export const jsonBody: RequestHandler = (req, res, next) => {
  // The usual type is taken at sight; any other is parsed by type-is as before.
  const plainJson = req.headers['content-type'] === 'application/json';
  if (!plainJson && hasBody(req) && !req.is(['application/json', '+json'])) {
    return next(new ApiError('unsupported_media_type', 'Send the body as application/json.'));
  }
  (req.path === BATCH_PATH ? parseBatch : parseJson)(req, res, next);
};
