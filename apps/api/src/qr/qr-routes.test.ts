import QRCode from 'qrcode';
import request from 'supertest';
import { invoiceBody, readyAccount, registerAccount } from '../testing/api-fixtures';
import { pngPixels, qrPixels } from '../testing/qr-pixels';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
let auth: { Authorization: string };
let invoice: { id: string; qr_url: string };

beforeAll(async () => {
  t = await createTestApp();
  const ready = await readyAccount(t.app);
  auth = ready.account.auth;
  const res = await request(t.app)
    .post('/api/v1/invoices')
    .set(auth)
    .send(invoiceBody(ready.taxpayerId, ready.systemId, { invoice_number: 'QR&1 /x' }))
    .expect(201);
  invoice = res.body.data;
});
afterAll(() => t.close());

// The expected images are drawn here from qr_url with the options spelled out: level M, 4-module quiet zone.
const expectedSvg = () => QRCode.toString(invoice.qr_url, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 });

describe('GET /api/v1/invoices/{id}/qr', () => {
  it('answers a PNG of the invoice qr_url at error-correction level M by default', async () => {
    const res = await request(t.app).get(`/api/v1/invoices/${invoice.id}/qr`).set(auth).buffer(true).expect(200);
    expect(res.headers['content-type']).toBe('image/png');
    const pixels = pngPixels(res.body as Buffer);
    expect(pixels.equals(await qrPixels(invoice.qr_url, 'M'))).toBe(true);
    // Level L of the same URL is a different symbol: the comparison above pins the level.
    expect(pixels.equals(await qrPixels(invoice.qr_url, 'L'))).toBe(false);
  });

  it('answers an SVG for ?format=svg and for Accept: image/svg+xml', async () => {
    const byQuery = await request(t.app).get(`/api/v1/invoices/${invoice.id}/qr?format=svg`).set(auth).buffer(true).expect(200);
    expect(byQuery.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(String(byQuery.body)).toBe(await expectedSvg());
    const byAccept = await request(t.app)
      .get(`/api/v1/invoices/${invoice.id}/qr`)
      .set(auth)
      .set('Accept', 'image/svg+xml')
      .buffer(true)
      .expect(200);
    expect(String(byAccept.body)).toBe(await expectedSvg());
  });

  it('refuses an unknown format and an Accept it cannot satisfy', async () => {
    const bad = await request(t.app).get(`/api/v1/invoices/${invoice.id}/qr?format=gif`).set(auth).expect(422);
    expect(bad.body.errors[0]).toMatchObject({ field: 'format' });
    await request(t.app)
      .get(`/api/v1/invoices/${invoice.id}/qr`)
      .set(auth)
      .set('Accept', 'application/json')
      .expect(406)
      .expect('Content-Type', /application\/problem\+json/);
  });

  it("needs the API key and never shows another account's invoice", async () => {
    await request(t.app).get(`/api/v1/invoices/${invoice.id}/qr`).expect(401);
    const other = await registerAccount(t.app);
    const res = await request(t.app).get(`/api/v1/invoices/${invoice.id}/qr`).set(other.auth).expect(404);
    expect(res.body.code).toBe('invoice_not_found');
    await request(t.app).get('/api/v1/invoices/not-a-uuid/qr').set(auth).expect(404);
  });
});
