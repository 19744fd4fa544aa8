import busboy from 'busboy';
import type { Request } from 'express';
import { formTooLarge, MalformedFormError } from './malformed-form-error';

export interface UploadedFile {
  filename: string;
  contentType: string;
  data: Buffer;
}

export interface MultipartForm {
  fields: Record<string, string>;
  files: Record<string, UploadedFile>;
}

const MAX_PARTS = 50;
const MAX_FILES = 4;
const MAX_FIELD_BYTES = 64 * 1024;

/**
 * Reads a multipart/form-data request (RFC 7578) with busboy into memory: the dashboard's forms hold one small
 * certificate at most. The whole body is capped at `maxBytes`; beyond it the parse fails with a 413 error. More
 * parts than any page sends fail with `tooManyFields` (the API's 413 problem, given by the caller).
 */
export function parseMultipart(req: Request, maxBytes: number, tooManyFields: (detail: string) => Error): Promise<MultipartForm> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: { fileSize: maxBytes, files: MAX_FILES, fields: MAX_PARTS, parts: MAX_PARTS, fieldSize: MAX_FIELD_BYTES },
      });
    } catch (err) {
      return reject(new MalformedFormError('the multipart form has no usable boundary', { cause: err }));
    }
    const form: MultipartForm = { fields: {}, files: {} };
    const pendingFiles: Promise<void>[] = [];
    let received = 0;
    let settled = false;

    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      // Drain the rest so the answer can still be written on this connection.
      req.resume();
      reject(err);
    };

    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) fail(formTooLarge());
    });
    req.on('aborted', () => fail(new MalformedFormError('the upload was interrupted')));

    parser.on('field', (name, value, info) => {
      if (info.nameTruncated || info.valueTruncated) return fail(formTooLarge());
      form.fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(formTooLarge()));
      pendingFiles.push(
        new Promise((done) =>
          stream.on('close', () => {
            const data = Buffer.concat(chunks);
            // A file input left empty still sends a part, with an empty filename and no bytes.
            if (info.filename || data.length > 0) form.files[name] = { filename: info.filename ?? '', contentType: info.mimeType, data };
            done();
          }),
        ),
      );
    });
    for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const) {
      parser.on(limit, () => fail(tooManyFields(`The form has more parts than any page of the dashboard sends (${limit}).`)));
    }
    parser.on('error', (err: Error) => fail(new MalformedFormError('the form upload was not complete or not well-formed', { cause: err })));
    parser.on('close', () => {
      void Promise.all(pendingFiles).then(() => {
        if (settled) return;
        settled = true;
        resolve(form);
      });
    });
    req.pipe(parser);
  });
}
