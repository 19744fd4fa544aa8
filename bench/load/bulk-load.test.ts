import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { registeredInBatch, runBulkLoad } from './bulk-load';
import type { BulkLoadSpec } from './load-spec';

describe('registeredInBatch', () => {
  it('counts every item of a plain success and none of a failure', () => {
    expect(registeredInBatch(201, { data: [] }, 1000)).toBe(1000);
    expect(registeredInBatch(422, { code: 'validation_failed' }, 1000)).toBe(0);
  });

  it('counts the successful items of a 207 Multi-Status, by their own status or the absence of a problem code', () => {
    const items = [
      { status: 201, data: { id: 'a' } },
      { status: 409, code: 'duplicate_invoice' },
      { status: 422, code: 'validation_failed' },
    ];
    expect(registeredInBatch(207, { results: items }, 3)).toBe(1);
    expect(registeredInBatch(207, { data: [{ data: { id: 'a' } }, { code: 'duplicate_invoice' }] }, 2)).toBe(1);
    expect(registeredInBatch(207, [{ status: 201 }, { status: 201 }], 2)).toBe(2);
  });

  it('counts nothing in a 207 whose items it cannot find', () => {
    expect(registeredInBatch(207, { message: 'mixed' }, 5)).toBe(0);
  });
});

describe('runBulkLoad against a stand-in API', () => {
  let server: Server;
  let baseUrl: string;
  let answer: (items: unknown[]) => { status: number; body: unknown };
  const received: unknown[][] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        const items = JSON.parse(text) as unknown[];
        received.push(items);
        const { status, body } = answer(items);
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const spec = (): BulkLoadSpec => ({
    kind: 'bulk',
    baseUrl,
    tenant: { apiKey: 'k', systemId: 's', taxpayerIds: ['t'] },
    clients: 2,
    batchSize: 10,
    numberPrefix: 'B',
    warmupBatches: 1,
    rounds: 1,
    bound: { count: 4 },
  });

  it('sends arrays of unique invoices and counts the items each 207 reports registered', async () => {
    received.length = 0;
    answer = (items) => ({
      status: 207,
      body: { results: items.map((_, i) => (i === 0 ? { status: 422, code: 'validation_failed' } : { status: 201, data: {} })) },
    });
    const result = await runBulkLoad(spec());
    expect(result.available).toBe(true);
    expect(result.rounds).toHaveLength(1);
    expect(result.rounds[0]).toMatchObject({ requests: 4, registered: 36, errors: 4 });
    expect(result.totalRegistered).toBe(45);
    expect(received).toHaveLength(5);
    const numbers = received.flat().map((item) => (item as { invoice_number: string }).invoice_number);
    expect(new Set(numbers).size).toBe(50);
    expect(result.errorSamples[0]).toContain('HTTP 207');
  });

  it('announces the measured rounds after the warm-up batch and again after the last batch, for the CPU readings', async () => {
    received.length = 0;
    answer = () => ({ status: 201, body: { data: [] } });
    const sentAt: Record<string, number> = {};
    await runBulkLoad(spec(), async (phase) => {
      sentAt[phase] = received.length;
    });
    expect(sentAt).toEqual({ measuring: 1, measured: 5 });
  });

  it('reports the workload as not available when the endpoint answers 404 or 405', async () => {
    answer = () => ({ status: 405, body: { code: 'method_not_allowed' } });
    const result = await runBulkLoad(spec());
    expect(result).toMatchObject({ available: false, unavailableReason: 'POST /api/v1/invoices/batch answered 405', rounds: [] });
  });
});
