import express, { type Request, type RequestHandler } from 'express';
import { ApiError } from '../errors/api-error';
import { verifyJsonShape } from './json-shape';

const parseJson = express.json({ limit: '1mb', verify: verifyJsonShape });
// A batch carries up to 1,000 invoices (MAX_BATCH_ITEMS) of up to about 10 KB each at their largest.
const parseBatch = express.json({ limit: '10mb', verify: verifyJsonShape });
const BATCH_PATH = '/invoices/batch';
// A list of tax IDs: up to 10,000 rows, as JSON or as a CSV file (the only body taken in another format).
const LIST_PATH = '/tax-ids/lists';
const parseCsv = express.text({ type: ['text/csv'], limit: '4mb' });

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Parses JSON bodies up to 1 MB (10 MB for a batch or a list of tax IDs) whose structure stays within
 * JSON_SHAPE_LIMITS (checked on the bytes, before parsing), and a list of tax IDs sent as `text/csv` (4 MB); a body in
 * any other format is refused with 415 rather than ignored.
 */
export const jsonBody: RequestHandler = (req, res, next) => {
  // The usual type is taken at sight; any other is parsed by type-is as before.
  const plainJson = req.headers['content-type'] === 'application/json';
  const csvList = req.path === LIST_PATH && req.method === 'POST' && !plainJson && req.is('text/csv') === 'text/csv';
  if (csvList) return parseCsv(req, res, next);
  if (!plainJson && hasBody(req) && !req.is(['application/json', '+json'])) {
    return next(new ApiError('unsupported_media_type', 'Send the body as application/json.'));
  }
  (req.path === BATCH_PATH || req.path === LIST_PATH ? parseBatch : parseJson)(req, res, next);
};
