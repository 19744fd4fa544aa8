import express, { type Request, type RequestHandler } from 'express';
import { ApiError } from '../errors/api-error';

const parseJson = express.json({ limit: '1mb' });

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Parses JSON bodies up to 1 MB; a body in any other format is refused with 415 rather than ignored. */
export const jsonBody: RequestHandler = (req, res, next) => {
  if (hasBody(req) && !req.is(['application/json', '+json'])) {
    return next(new ApiError('unsupported_media_type', 'Send the body as application/json.'));
  }
  parseJson(req, res, next);
};
