import { parseMultipart } from './parse-multipart';

function body(boundary: string, parts: string[]): Buffer {
  return Buffer.from(parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('') + `--${boundary}--\r\n`, 'binary');
}

describe('parseMultipart', () => {
  it('reads text fields and a binary file byte for byte', () => {
    const bytes = Buffer.from([0x30, 0x82, 0x0d, 0x0a, 0x2d, 0x2d, 0x00, 0xff]);
    const b = 'XyZ123';
    const raw = Buffer.concat([
      Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\ntok\r\n`),
      Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="certificate_password"\r\n\r\nñ pass\r\n`),
      Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="certificate"; filename="cert.p12"\r\nContent-Type: application/x-pkcs12\r\n\r\n`),
      bytes,
      Buffer.from(`\r\n--${b}--\r\n`),
    ]);
    const form = parseMultipart(raw, `multipart/form-data; boundary=${b}`);
    expect(form?.fields).toEqual({ _csrf: 'tok', certificate_password: 'ñ pass' });
    expect(form?.files.certificate.filename).toBe('cert.p12');
    expect(form?.files.certificate.data.equals(bytes)).toBe(true);
  });

  it('treats an empty file input as no file', () => {
    const form = parseMultipart(
      body('b', ['Content-Disposition: form-data; name="certificate"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n']),
      'multipart/form-data; boundary="b"',
    );
    expect(form).toEqual({ fields: {}, files: {} });
  });

  it('refuses a truncated body', () => {
    const raw = Buffer.from('--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue-without-end');
    expect(parseMultipart(raw, 'multipart/form-data; boundary=b')).toBeUndefined();
  });

  it('refuses a body without a boundary parameter', () => {
    expect(parseMultipart(Buffer.from('x'), 'multipart/form-data')).toBeUndefined();
  });
});
