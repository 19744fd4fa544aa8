import { apiDocument } from '../create-app';

// The clients name their methods after the document's operationIds (registerInvoice, register_invoice): renaming or
// removing one breaks every integrator's code that calls it, even after `npm run client:generate` (decision 0036).
// A new operation needs no entry here; one listed may go only in a new major version of the API.
const RELEASED = [
  'cancelInvoice',
  'classifySale',
  'correctInvoice',
  'createRemission',
  'createSystem',
  'createTaxIdList',
  'createTaxpayer',
  'createTaxpayerEvent',
  'createWebhook',
  'deleteSystem',
  'deleteTaxpayer',
  'deleteWebhook',
  'exportInvoices',
  'exportTaxIdListResults',
  'exportTaxpayerPeriod',
  'getAccount',
  'getChain',
  'getHealth',
  'getInvoice',
  'getInvoiceQr',
  'getInvoiceRecordXml',
  'getOpenApiDocument',
  'getRemission',
  'getSystem',
  'getTaxIdList',
  'getTaxpayer',
  'getTaxpayerEvent',
  'getTaxpayerEventXml',
  'getWebhook',
  'listInvoiceSubmissions',
  'listInvoices',
  'listRemissions',
  'listSandboxScenarios',
  'listSystems',
  'listTaxIdChecks',
  'listTaxIdListResults',
  'listTaxpayerAlarms',
  'listTaxpayerEvents',
  'listTaxpayers',
  'listWebhookDeliveries',
  'listWebhooks',
  'regenerateApiKey',
  'registerAccount',
  'registerInvoice',
  'registerInvoiceBatch',
  'resendInvoice',
  'testWebhook',
  'updateAccountSettings',
  'updateSystem',
  'updateTaxpayer',
  'validateInvoice',
  'verifyChain',
  'verifyInvoiceRecord',
  'verifyTaxIds',
  'verifyTaxpayerChain',
];

test('every operationId the clients were released with is still in the document', async () => {
  const document = (await apiDocument()) as unknown as { paths: Record<string, Record<string, { operationId: string }>> };
  const ids = new Set(Object.values(document.paths).flatMap((operations) => Object.values(operations).map((o) => o.operationId)));
  expect(RELEASED.filter((id) => !ids.has(id))).toEqual([]);
});
