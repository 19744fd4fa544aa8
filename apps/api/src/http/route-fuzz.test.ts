import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { browser, csrfTokenIn, signUp, type DashboardAccount } from '@vf/dashboard/testing';
import { createSystem, createTaxpayer, invoiceBody, registerAccount, type TestAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

// Every API route, fed arbitrary paths, queries, bodies, content types and encodings: no answer may be a 5xx,
// and an answer that refuses the request (4xx) must leave every table as it was.
let t: TestApp;
let account: TestAccount;
let taxpayerId: string;
let systemId: string;

beforeAll(async () => {
  t = await createTestApp({
    throttleLimits: { registrationsFromAddress: { points: 10_000, durationSeconds: 60 }, address: { points: 10_000, durationSeconds: 60 } },
    // A webhook URL the fuzzer makes up is never looked up in the machine's DNS.
    resolveHost: () => Promise.reject(new Error('not resolved in this test')),
  });
  account = await registerAccount(t.app);
  taxpayerId = await createTaxpayer(t.app, account);
  systemId = await createSystem(t.app, account);
});
afterAll(() => t.close());

const TABLES = ['accounts', 'taxpayers', 'computer_systems', 'invoices', 'web_sessions', 'webhook_endpoints'];

// Every table's count in one statement: one round trip per look rather than one per table (twice per request).
const COUNT_ROWS = sql.raw(`SELECT ${TABLES.map((table) => `(SELECT count(*)::int FROM ${table}) AS ${table}`).join(', ')}`);

async function rowCounts(): Promise<Record<string, number>> {
  return (await t.db.db.execute<Record<string, number>>(COUNT_ROWS)).rows[0];
}

// Dates of the right shape that do not exist, and cursors of the right shape holding one.
const impossible = [
  '2025-02-30',
  '2025-13-01',
  Buffer.from(JSON.stringify(['-created_at', '2025-02-30 10:00:00+00', '00000000-0000-4000-8000-000000000000'])).toString('base64url'),
  Buffer.from(JSON.stringify(['invoice_date', '2025-02-30', '00000000-0000-4000-8000-000000000000'])).toString('base64url'),
];
// Text that has broken servers before: control characters, lone surrogates, bad percent-encoding, huge numbers.
const nasty = fc.constantFrom(
  '\u0000',
  'a\u0000b',
  '\u001b[31m',
  '\ud800',
  '%zz',
  '%',
  '%00',
  "' OR 1=1 --",
  '1e999',
  '-0',
  '__proto__',
  'ñ'.repeat(300),
  '',
  ...impossible,
);
const text = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), nasty);
const leaf = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(text, tie('node'), { maxKeys: 3 })),
})).node;

const FIELDS = [
  'name',
  'email',
  'password',
  'nif',
  'taxpayer_id',
  'computer_system_id',
  'invoice_number',
  'invoice_date',
  'invoice_type',
  'description',
  'recipient',
  'breakdown',
  'total_amount',
  'total_tax_amount',
  'vendor_name',
  'vendor_nif',
  'version',
  'installation_number',
  'is_production',
  'certificate_p12_base64',
  'certificate_password',
  'status',
  'limit',
  'cursor',
  'date_from',
  'date_to',
  'sort',
  'q',
  'decimal',
  'url',
  'events',
];
// A lone surrogate has no UTF-8 form: sent as the bytes a careless client would use, which must not decode.
const encode = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80';
  }
};
const fieldName = fc.oneof(fc.constantFrom(...FIELDS), text);
/** A body sent as these exact bytes rather than as the JSON of a value. */
class RawBody {
  constructor(readonly text: string) {}
}
// Bodies made to cost more than their size: too deep, too many keys, too many items.
const hostile = fc
  .constantFrom(
    `${'['.repeat(1_000)}${']'.repeat(1_000)}`,
    JSON.stringify(Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, 1]))),
    JSON.stringify({ breakdown: Array.from({ length: 20_000 }, () => 1) }),
  )
  .map((text) => new RawBody(text));
const body = fc.oneof(
  fc.dictionary(fieldName, value, { maxKeys: 6 }),
  // A valid invoice with one field replaced: reaches deeper validation than random objects do.
  fc.tuple(fc.constantFrom(...FIELDS), value).map(([field, v]) => ({ ...invoiceBody(taxpayerIdRef(), systemIdRef()), [field]: v })),
  value,
  hostile,
);
const taxpayerIdRef = () => taxpayerId;
const systemIdRef = () => systemId;

const segment = fc.oneof(
  text.map(encode),
  nasty,
  fc.constantFrom('00000000-0000-0000-0000-000000000000', '89890001K'),
  fc.constant('__TAXPAYER__'),
);
const ROUTES: [string, string[]][] = [
  ['/api/v1/auth/register', ['POST']],
  ['/api/v1/auth/regenerate-key', ['POST']],
  ['/api/v1/account', ['GET']],
  ['/api/v1/taxpayers', ['GET', 'POST']],
  ['/api/v1/taxpayers/:id', ['GET', 'PUT', 'DELETE']],
  ['/api/v1/systems', ['GET', 'POST']],
  ['/api/v1/systems/:id', ['GET', 'PUT', 'DELETE']],
  ['/api/v1/invoices', ['GET', 'POST']],
  ['/api/v1/invoices/validate', ['POST']],
  ['/api/v1/invoices/classify', ['POST']],
  ['/api/v1/invoices/:id', ['GET']],
  ['/api/v1/invoices/:id/submissions', ['GET']],
  ['/api/v1/invoices/:id/qr', ['GET']],
  ['/api/v1/invoices/:id/cancel', ['POST']],
  ['/api/v1/invoices/:id/resend', ['POST']],
  ['/api/v1/invoices/batch', ['POST']],
  ['/api/v1/invoices/export', ['GET']],
  ['/api/v1/chain/:id', ['GET']],
  ['/api/v1/webhooks', ['GET', 'POST']],
  ['/api/v1/webhooks/:id', ['GET', 'DELETE']],
  ['/api/v1/webhooks/:id/deliveries', ['GET']],
  ['/api/v1/webhooks/:id/test', ['POST']],
  ['/api/v1/health', ['GET']],
];

const requestShape = fc.record({
  route: fc.constantFrom(...ROUTES),
  otherMethod: fc.boolean(),
  method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'),
  segment,
  query: fc.oneof(
    fc.dictionary(fieldName.map(encode), fc.oneof(text.map(encode), nasty), { maxKeys: 3 }),
    // The lists' filters and cursors, where a value of the right shape can still be wrong.
    fc.dictionary(
      fc.constantFrom('date_from', 'date_to', 'cursor', 'sort', 'q', 'status', 'limit'),
      fc.oneof(fc.constantFrom(...impossible, '\u0000'), nasty).map(encode),
      { maxKeys: 3 },
    ),
  ),
  body,
  contentType: fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/merge-patch+json',
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/json; charset=latin1',
  ),
  encoding: fc.constantFrom(undefined, undefined, undefined, 'gzip', 'deflate', 'br', 'zstd', 'identity'),
  authenticated: fc.boolean(),
});

test('no route answers 5xx to any input, and a refused request writes nothing', async () => {
  await fc.assert(
    fc.asyncProperty(requestShape, async (shape) => {
      const [pattern, methods] = shape.route;
      const method = shape.otherMethod ? shape.method : methods[0];
      const id = shape.segment === '__TAXPAYER__' ? taxpayerId : shape.segment;
      const query = Object.entries(shape.query)
        .map(([k, v]) => `${k}=${v}`)
        .join('&');
      const url = pattern.replace(':id', id) + (query ? `?${query}` : '');
      const before = await rowCounts();
      let req = request(t.app)[method.toLowerCase() as 'get'](url).set('Content-Type', shape.contentType);
      if (shape.authenticated) req = req.set(account.auth);
      if (shape.encoding) req = req.set('Content-Encoding', shape.encoding);
      const sent = shape.body instanceof RawBody ? shape.body.text : (JSON.stringify(shape.body) ?? 'null');
      const res = method === 'GET' ? await req : await req.send(sent);
      expect(`${method} ${url} -> ${res.status} ${res.body?.code ?? ''}`).not.toMatch(/ -> 5\d\d/);
      if (res.status >= 400) expect(await rowCounts()).toEqual(before);
    }),
    { numRuns: 200 },
  );
});

// Every page and form of the dashboard but POST /logout, which would end the session the run signs in with.
const PAGES: [string, 'GET' | 'POST'][] = [
  ['/', 'GET'],
  ['/login', 'GET'],
  ['/signup', 'GET'],
  ['/app', 'GET'],
  ['/app/welcome', 'GET'],
  ['/app/invoices', 'GET'],
  ['/app/corrective-invoices', 'GET'],
  ['/app/invoices/export.csv', 'GET'],
  ['/app/corrective-invoices/export.csv', 'GET'],
  ['/app/invoices/statuses', 'GET'],
  ['/app/invoices/:id', 'GET'],
  ['/app/invoices/:id/qr.png', 'GET'],
  ['/app/invoices/:id/correct', 'GET'],
  ['/app/invoices/:id/records/:id/xml', 'GET'],
  ['/app/taxpayers', 'GET'],
  ['/app/taxpayers/new', 'GET'],
  ['/app/taxpayers/:id', 'GET'],
  ['/app/taxpayers/:id/chain', 'GET'],
  ['/app/systems', 'GET'],
  ['/app/systems/new', 'GET'],
  ['/app/systems/:id', 'GET'],
  ['/app/api-key', 'GET'],
  ['/app/webhooks', 'GET'],
  ['/app/webhooks/:id', 'GET'],
  ['/login', 'POST'],
  ['/signup', 'POST'],
  ['/app/invoices/:id/resend', 'POST'],
  ['/app/invoices/:id/correct', 'POST'],
  ['/app/invoices/:id/cancel', 'POST'],
  ['/app/taxpayers', 'POST'],
  ['/app/taxpayers/:id', 'POST'],
  ['/app/taxpayers/:id/certificate', 'POST'],
  ['/app/taxpayers/:id/certificate/remove', 'POST'],
  ['/app/taxpayers/:id/delete', 'POST'],
  ['/app/taxpayers/:id/chain/verify', 'POST'],
  ['/app/systems', 'POST'],
  ['/app/systems/:id', 'POST'],
  ['/app/systems/:id/delete', 'POST'],
  ['/app/api-key/regenerate', 'POST'],
  ['/app/webhooks', 'POST'],
  ['/app/webhooks/:id/delete', 'POST'],
];
const FORM_FIELDS = [
  'name',
  'email',
  'password',
  'password_confirmation',
  'nif',
  'is_production',
  'certificate_password',
  'vendor_name',
  'vendor_nif',
  'version',
  'installation_number',
  'next',
  'url',
  'events',
  'reason',
  'invoice_number',
  'total_amount',
];
const QUERY_FIELDS = [
  'page',
  'status',
  'taxpayer_id',
  'notice',
  'cursor',
  'next',
  'q',
  'date_from',
  'date_to',
  'sort',
  'invoice_type',
  'ids',
];
const formField = fc.oneof(text, fc.string({ maxLength: 200 }));
const formShape = fc.record({
  page: fc.constantFrom(...PAGES),
  signedIn: fc.oneof(fc.constant(true), fc.constant(true), fc.constant(false)),
  segment,
  query: fc.dictionary(fc.oneof(fc.constantFrom(...QUERY_FIELDS), text).map(encode), fc.oneof(text.map(encode), nasty), { maxKeys: 3 }),
  fields: fc.oneof(
    fc.dictionary(fc.oneof(fc.constantFrom(...FORM_FIELDS), text), formField, { maxKeys: 6 }),
    // More fields than any form has: the parsers' limits (100 URL-encoded fields, 50 multipart parts) must answer.
    fc.integer({ min: 90, max: 160 }).map((n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`field${i}`, 'x']))),
  ),
  multipart: fc.boolean(),
  file: fc.option(fc.uint8Array({ maxLength: 64 }), { nil: undefined }),
});

test('no dashboard page or form answers 5xx to any input, signed in or not, and a refused form writes nothing', async () => {
  const owner: DashboardAccount = await signUp(t.app);
  const dashboardTaxpayer = await createTaxpayer(t.app, owner, { nif: '89890002E' });
  const token = csrfTokenIn((await owner.agent.get('/app/taxpayers/new').expect(200)).text);
  // Signed out: a browser with the pre-session CSRF token the sign-in page hands out.
  const visitor = browser(t.app);
  const visitorToken = csrfTokenIn((await visitor.get('/login').expect(200)).text);
  await fc.assert(
    fc.asyncProperty(formShape, async (shape) => {
      const [pattern, method] = shape.page;
      const [agent, csrf] = shape.signedIn ? [owner.agent, token] : [visitor, visitorToken];
      const id = shape.segment === '__TAXPAYER__' ? dashboardTaxpayer : shape.segment;
      const query = Object.entries(shape.query)
        .map(([k, v]) => `${k}=${v}`)
        .join('&');
      const url = pattern.replaceAll(':id', id) + (query ? `?${query}` : '');
      const before = await rowCounts();
      let res: request.Response;
      if (method === 'GET') res = await agent.get(url);
      else if (shape.multipart) {
        let req = agent.post(url).field('_csrf', csrf);
        for (const [name, value] of Object.entries(shape.fields)) if (name !== '' && name !== '_csrf') req = req.field(name, value);
        if (shape.file) req = req.attach('certificate', Buffer.from(shape.file), 'certificate.p12');
        res = await req;
      } else
        res = await agent
          .post(url)
          .type('form')
          .send({ ...shape.fields, _csrf: csrf });
      expect(`${shape.signedIn ? '' : 'signed out: '}${method} ${url} -> ${res.status}`).not.toMatch(/ -> 5\d\d/);
      if (res.status >= 400) expect(await rowCounts()).toEqual(before);
    }),
    { numRuns: 150 },
  );
});
