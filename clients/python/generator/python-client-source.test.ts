import { checkGenerated, pythonClientSource, type OpenApiDocument } from './python-client-source';
import { snakeCase } from './python-types';

const invoice = {
  type: 'object',
  properties: {
    invoice_number: { type: 'string' },
    recipient: { anyOf: [{ type: 'object', properties: { nif: { type: 'string' } }, required: ['nif'] }, { const: null }] },
  },
  required: ['invoice_number'],
};

function document(): OpenApiDocument {
  return structuredClone({
    paths: {
      '/invoices': {
        post: {
          operationId: 'registerInvoice',
          summary: 'Register an invoice.',
          parameters: [{ name: 'Idempotency-Key', in: 'header', schema: { type: 'string' } }],
          requestBody: { content: { 'application/json': { schema: invoice } } },
          responses: {
            '201': { content: { 'application/json': { schema: { type: 'object', properties: { data: invoice }, required: ['data'] } } } },
          },
        },
      },
      '/chain/{nif}/verification': {
        get: {
          operationId: 'verifyChain',
          parameters: [
            { name: 'nif', in: 'path', schema: { type: 'string' } },
            { name: 'from', in: 'query', schema: { type: 'string' } },
          ],
          responses: { '200': { content: { 'text/csv': { schema: { type: 'string' } } } } },
        },
      },
    },
  });
}

test('operations become snake_case methods, schemas TypedDicts, and a repeated shape one name with an alias', () => {
  const source = pythonClientSource(document());
  expect(source).toContain(
    'class RegisterInvoiceBody(TypedDict):\n    invoice_number: str\n    recipient: NotRequired[RegisterInvoiceBodyRecipient | None]',
  );
  expect(source).toContain('RegisterInvoiceResult = RegisterInvoiceBody');
  expect(source).toContain(
    '    def register_invoice(\n        self,\n        body: RegisterInvoiceBody,\n        *,\n        idempotency_key: str | None = None,\n    ) -> RegisterInvoiceResult:',
  );
  expect(source).toContain('headers={"Idempotency-Key": idempotency_key},\n            expect="json",\n            unwrap="data",');
  // A Python keyword as a parameter's name gets an underscore; the wire keeps the document's name.
  expect(source).toContain(
    '    def verify_chain(\n        self,\n        nif: str,\n        *,\n        from_: str | None = None,\n    ) -> str:',
  );
  expect(source).toContain('query={"from": from_},\n            headers={"Accept": "text/csv"},\n            expect="text",');
  expect(['getOpenApiDocument', 'verifyTaxIds', 'listTaxIdChecks'].map(snakeCase)).toEqual([
    'get_open_api_document',
    'verify_tax_ids',
    'list_tax_id_checks',
  ]);
});

test('a change to the document without regenerating fails with where and what to run', () => {
  const committed = pythonClientSource(document());
  const changed = document();
  (changed.paths['/invoices'].post.requestBody!.content!['application/json'].schema!.properties as Record<string, unknown>).notes = {
    type: 'string',
  };
  expect(() => checkGenerated(committed, pythonClientSource(changed))).toThrow(
    /_generated\.py differs from the served OpenAPI document \(first at line \d+: expected " {4}notes: NotRequired\[str\]", found .*\): run `npm run client:generate` and commit the result\./,
  );
  expect(() => checkGenerated(committed, pythonClientSource(document()))).not.toThrow();
});
