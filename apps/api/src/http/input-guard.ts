import type { RequestHandler } from 'express';
import { ApiError } from '../errors/api-error';
import { bodyScannedWithoutControls } from './json-shape';

// C0 controls except tab, line feed and carriage return (which forms and descriptions legitimately carry), DEL and
// the C1 controls. PostgreSQL refuses NUL in text outright; the others only corrupt what is shown and sent on.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const MAX_DEPTH = 32;

/** The first place in a parsed value (keys included) holding a control character, as a dotted field path. */
export function controlCharacterField(value: unknown): string | undefined {
  return culprit(value, 0)?.reverse().join('.');
}

/**
 * The keys leading to the first control character, innermost first. The path is only built for a culprit: every
 * body goes through this walk, and almost none has one.
 */
function culprit(value: unknown, depth: number): string[] | undefined {
  if (typeof value === 'string') return CONTROL.test(value) ? [] : undefined;
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return undefined;
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    if (CONTROL.test(key)) return [key];
    const found = culprit(object[key], depth + 1);
    if (found !== undefined) {
      found.push(key);
      return found;
    }
  }
  return undefined;
}

export function invalidCharacters(field: string): ApiError {
  const name = field || 'body';
  return new ApiError('invalid_characters', `${name} contains a control character (such as NUL); remove it and send again.`, {
    errors: [{ field: name, code: 'invalid_characters', message: `${name} must not contain control characters` }],
  });
}

/** Percent-encoding that does not decode (`/taxpayers/%zz`) is a malformed URL, answered before any route runs. */
export const rejectMalformedUrl: RequestHandler = (req, _res, next) => {
  const path = req.path;
  let decoded: string;
  try {
    // A path without a percent sign decodes to itself: most paths are not copied.
    decoded = path.includes('%') ? decodeURIComponent(path) : path;
  } catch {
    return next(
      new ApiError('malformed_url', 'The URL path holds a percent-encoding that does not decode (use %XX with two hex digits, UTF-8).'),
    );
  }
  if (CONTROL.test(decoded)) return next(invalidCharacters('path'));
  next();
};

/** The query string's names and values: the dashboard's pages read theirs as typed (a search box, a filter). */
export const rejectControlCharactersInQuery: RequestHandler = (req, _res, next) => {
  const inQuery = controlCharacterField(req.query);
  next(inQuery === undefined ? undefined : invalidCharacters(inQuery));
};

/** Every text field of the query and the parsed body, checked once at the edge so no feature sends one to PostgreSQL. */
export const rejectControlCharacters: RequestHandler = (req, _res, next) => {
  // Express parses the query string again on each read of req.query: a URL without one is not asked.
  const inQuery = req.url.includes('?') ? controlCharacterField(req.query) : undefined;
  if (inQuery !== undefined) return next(invalidCharacters(inQuery));
  // A JSON body whose bytes the shape scan found free of control characters is not walked again (a batch: 1 MB).
  const inBody = bodyScannedWithoutControls(req) ? undefined : controlCharacterField(req.body);
  if (inBody !== undefined) return next(invalidCharacters(inBody));
  next();
};
