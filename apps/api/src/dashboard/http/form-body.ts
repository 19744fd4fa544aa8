import express, { type RequestHandler, type Response } from 'express';
import { parseMultipart, type UploadedFile } from './parse-multipart';

/** A PKCS#12 is a few KB; the API refuses files over 256 KB, so the whole form never needs more than this. */
export const MAX_FORM_BYTES = 512 * 1024;

const urlencoded = express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 100 });
const multipart = express.raw({ type: 'multipart/form-data', limit: MAX_FORM_BYTES });

export class MalformedFormError extends Error {}

/**
 * Parses the dashboard's form posts: URL-encoded forms, and multipart forms for the certificate upload. Either
 * way req.body holds the text fields (the CSRF token among them); uploaded files are in res.locals.
 */
export const formBody: RequestHandler = (req, res, next) => {
  if (req.method !== 'POST') return next();
  if (!req.is('multipart/form-data')) return urlencoded(req, res, next);
  multipart(req, res, (err?: unknown) => {
    if (err) return next(err);
    const form = Buffer.isBuffer(req.body) ? parseMultipart(req.body, req.headers['content-type'] ?? '') : undefined;
    if (!form) return next(new MalformedFormError('the form upload was not complete or not well-formed'));
    req.body = form.fields;
    res.locals.uploadedFiles = form.files;
    next();
  });
};

export function uploadedFile(res: Response, name: string): UploadedFile | undefined {
  return (res.locals.uploadedFiles as Record<string, UploadedFile> | undefined)?.[name];
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
