import { enCommon } from './common';
import { enSignIn } from './sign-in';
import { enApiKey } from './api-key';
import { enOverview } from './overview';
import { enInvoices } from './invoices';
import { enInvoiceDetail } from './invoice-detail';
import { enInvoiceCorrection } from './invoice-correction';
import { enWebhooks } from './webhooks';
import { enSystems } from './systems';
import { enChain } from './chain';
import { enTaxpayers } from './taxpayers';
import { enSandbox } from './sandbox';
import { enOperatingMode } from './operating-mode';
import { enKeptRecords } from './kept-records';
import { enTaxIds } from './tax-ids';
import { enKeptRecipientCheck } from './kept-recipient-check';
import { enNewInvoice } from './new-invoice';
import type { Catalogue } from './es';

/** The dashboard's texts in English, gathered from the features' files like `es.ts`. */
export const en: Catalogue = {
  ...enCommon,
  ...enSignIn,
  ...enApiKey,
  ...enOverview,
  ...enInvoices,
  ...enInvoiceDetail,
  ...enInvoiceCorrection,
  ...enWebhooks,
  ...enSystems,
  ...enChain,
  ...enTaxpayers,
  ...enSandbox,
  ...enOperatingMode,
  ...enKeptRecords,
  ...enTaxIds,
  ...enKeptRecipientCheck,
  ...enNewInvoice,
};
