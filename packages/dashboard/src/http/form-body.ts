import express, { type RequestHandler, type Response } from 'express';
import { trimSpaces } from '@vf/core';
import type { ApiProblems } from '../dashboard-api';
import { parseMultipart, type UploadedFile } from './parse-multipart';

export { MalformedFormError } from './malformed-form-error';

/** A PKCS#12 is a few KB; the API refuses files over 256 KB, so the whole form never needs more than this. */
export const MAX_FORM_BYTES = 512 * 1024;
/** The list check's upload: 10,000 tax IDs with names of up to 120 characters. */
export const MAX_LIST_UPLOAD_BYTES = 2 * 1024 * 1024;
const LIST_UPLOAD_PATH = '/app/tax-ids';

const urlencoded = express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 100 });

function isIdentity(encoding: string | undefined): boolean {
  return encoding === undefined || encoding.trim().toLowerCase() === 'identity';
}

/**
 * Parses the dashboard's form posts: URL-encoded forms, and multipart forms for the certificate upload. Either
 * way req.body holds the text fields (the CSRF token among them); uploaded files are in res.locals. A field
 * holding a control character is refused here, before any page handler sees it.
 */
export function formBody(problems: ApiProblems): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'POST') return next();
    const checked = (err?: unknown) => {
      if (err) return next(err);
      const culprit = problems.controlCharacterField(req.body);
      next(culprit === undefined ? undefined : problems.invalidCharacters(culprit));
    };
    if (!req.is('multipart/form-data')) return urlencoded(req, res, checked);
    if (!isIdentity(req.headers['content-encoding'])) {
      return next(problems.create('unsupported_content_encoding', 'Send the form uncompressed.'));
    }
    const maxBytes = req.path === LIST_UPLOAD_PATH ? MAX_LIST_UPLOAD_BYTES : MAX_FORM_BYTES;
    parseMultipart(req, maxBytes, (detail) => problems.create('too_many_fields', detail)).then((form) => {
      req.body = form.fields;
      res.locals.uploadedFiles = form.files;
      checked();
    }, next);
  };
}

export function uploadedFile(res: Response, name: string): UploadedFile | undefined {
  return (res.locals.uploadedFiles as Record<string, UploadedFile> | undefined)?.[name];
}

/**
 * A form field whose text a record carries (names, invoice texts): only the spaces at its ends are removed, as the
 * authority removes them; any other blank there goes on to the service, which refuses it with its reason (decision
 * 0033), rather than being dropped in silence.
 */
export function textField(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? trimSpaces(value) : '';
}

/** A form field as a trimmed string ('' when absent or not a string). */
export function field(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** A form field exactly as typed: passwords are never trimmed. */
export function rawField(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}
