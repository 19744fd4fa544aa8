export interface UploadedFile {
  filename: string;
  contentType: string;
  data: Buffer;
}

export interface MultipartForm {
  fields: Record<string, string>;
  files: Record<string, UploadedFile>;
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');
const MAX_PARTS = 50;

function boundaryOf(contentType: string): string | undefined {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^;\s]{1,70}))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

function dispositionParams(header: string): Record<string, string> {
  const params: Record<string, string> = {};
  const re = /;\s*([A-Za-z0-9_*-]+)=(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (let m = re.exec(header); m; m = re.exec(header)) params[m[1].toLowerCase()] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3].trim();
  return params;
}

/**
 * Parses a buffered multipart/form-data body (RFC 7578): enough for the dashboard's one upload form, whose body
 * the caller has already capped in size. Returns undefined when the body is not well-formed.
 */
export function parseMultipart(body: Buffer, contentType: string): MultipartForm | undefined {
  const boundary = boundaryOf(contentType);
  if (!boundary) return undefined;
  const delimiter = Buffer.from(`--${boundary}`);
  const form: MultipartForm = { fields: {}, files: {} };

  let at = body.indexOf(delimiter);
  if (at < 0) return undefined;
  for (let parts = 0; ; parts++) {
    at += delimiter.length;
    if (body.subarray(at, at + 2).toString('latin1') === '--') return form;
    if (parts >= MAX_PARTS || !body.subarray(at, at + 2).equals(CRLF)) return undefined;
    const headerEnd = body.indexOf(HEADER_END, at + 2);
    if (headerEnd < 0) return undefined;
    const headers = body.subarray(at + 2, headerEnd).toString('utf8').split('\r\n');
    const contentStart = headerEnd + HEADER_END.length;
    const next = body.indexOf(Buffer.concat([CRLF, delimiter]), contentStart);
    if (next < 0) return undefined;
    const content = body.subarray(contentStart, next);

    let disposition = '';
    let partType = 'text/plain';
    for (const line of headers) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === 'content-disposition') disposition = value;
      if (name === 'content-type') partType = value;
    }
    const params = dispositionParams(disposition);
    if (!/^form-data\b/i.test(disposition) || !params.name) return undefined;
    if (params.filename !== undefined) {
      // A file input left empty still sends a part, with an empty filename and no bytes.
      if (params.filename !== '' || content.length > 0) {
        form.files[params.name] = { filename: params.filename, contentType: partType, data: Buffer.from(content) };
      }
    } else {
      form.fields[params.name] = content.toString('utf8');
    }
    at = next + CRLF.length;
  }
}
