import express, { type ErrorRequestHandler } from 'express';
import request from 'supertest';
import { apiProblems } from '@vf/api';
import { formBody, MalformedFormError, MAX_FORM_BYTES, uploadedFile } from './form-body';

// The parser behind a bare route: echoes what it read, and the status the dashboard's error handler would use.
const app = express();
app.post('/form', formBody(apiProblems), (req, res) => {
  const file = uploadedFile(res, 'certificate');
  res.json({ fields: req.body, file: file && { filename: file.filename, contentType: file.contentType, hex: file.data.toString('hex') } });
});
const statusOf: ErrorRequestHandler = (err, _req, res, _next) => {
  const status = apiProblems.of(err)?.status ?? (err instanceof MalformedFormError ? 400 : err?.type === 'entity.too.large' ? 413 : 500);
  res.status(status).json({ code: apiProblems.of(err)?.code });
};
app.use(statusOf);

const post = (boundary: string, body: Buffer | string) =>
  request(app)
    .post('/form')
    .set('Content-Type', `multipart/form-data; boundary=${boundary}`)
    .send(Buffer.isBuffer(body) ? body : Buffer.from(body, 'binary'));

describe('dashboard multipart forms', () => {
  it('reads text fields and a binary file byte for byte', async () => {
    const bytes = Buffer.from([0x30, 0x82, 0x0d, 0x0a, 0x2d, 0x2d, 0x00, 0xff]);
    const b = 'XyZ123';
    const raw = Buffer.concat([
      Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\ntok\r\n`),
      Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="certificate_password"\r\n\r\nñ pass\r\n`),
      Buffer.from(
        `--${b}\r\nContent-Disposition: form-data; name="certificate"; filename="cert.p12"\r\nContent-Type: application/x-pkcs12\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${b}--\r\n`),
    ]);
    const res = await post(b, raw).expect(200);
    expect(res.body).toEqual({
      fields: { _csrf: 'tok', certificate_password: 'ñ pass' },
      file: { filename: 'cert.p12', contentType: 'application/x-pkcs12', hex: bytes.toString('hex') },
    });
  });

  it('treats an empty file input as no file', async () => {
    const res = await post(
      'b',
      '--b\r\nContent-Disposition: form-data; name="certificate"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n\r\n--b--\r\n',
    ).expect(200);
    expect(res.body).toEqual({ fields: {} });
  });

  it('refuses a truncated body and a body without a boundary with 400', async () => {
    await post('b', '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue-without-end').expect(400);
    await request(app).post('/form').set('Content-Type', 'multipart/form-data').send(Buffer.from('x')).expect(400);
  });

  it(`refuses a form over ${MAX_FORM_BYTES / 1024} KB with 413, as a file or as a field`, async () => {
    const big = Buffer.alloc(MAX_FORM_BYTES + 1024, 0x41);
    const asFile = Buffer.concat([
      Buffer.from('--b\r\nContent-Disposition: form-data; name="certificate"; filename="big.p12"\r\n\r\n'),
      big,
      Buffer.from('\r\n--b--\r\n'),
    ]);
    await post('b', asFile).expect(413);
    const asField = Buffer.concat([
      Buffer.from('--b\r\nContent-Disposition: form-data; name="name"\r\n\r\n'),
      big,
      Buffer.from('\r\n--b--\r\n'),
    ]);
    await post('b', asField).expect(413);
  });

  it('refuses control characters in any field with 422 invalid_characters, multipart or URL-encoded', async () => {
    const res = await post('b', '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nACME\u0000 SL\r\n--b--\r\n').expect(422);
    expect(res.body.code).toBe('invalid_characters');
    const form = await request(app).post('/form').type('form').send('name=ACME%00SL').expect(422);
    expect(form.body.code).toBe('invalid_characters');
  });

  it('refuses a compressed multipart body with 415', async () => {
    const res = await request(app)
      .post('/form')
      .set('Content-Type', 'multipart/form-data; boundary=b')
      .set('Content-Encoding', 'gzip')
      .send(Buffer.from('--b--\r\n'))
      .expect(415);
    expect(res.body.code).toBe('unsupported_content_encoding');
  });
});
