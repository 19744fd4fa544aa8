import { esCommon } from './common';
import { esSignIn } from './sign-in';
import { esApiKey } from './api-key';
import { esOverview } from './overview';
import { esInvoices } from './invoices';
import { esInvoiceDetail } from './invoice-detail';
import { esInvoiceCorrection } from './invoice-correction';
import { esWebhooks } from './webhooks';
import { esSystems } from './systems';
import { esChain } from './chain';
import { esTaxpayers } from './taxpayers';
import { esSandbox } from './sandbox';
import { esOperatingMode } from './operating-mode';
import { esKeptRecords } from './kept-records';
import { esTaxIds } from './tax-ids';
import { esKeptRecipientCheck } from './kept-recipient-check';
import { esNewInvoice } from './new-invoice';
import type { Widen } from './widen';

/**
 * The dashboard's texts in Spanish, its default language: one file per feature holds a feature's texts in both
 * languages. `en.ts` must have the same keys (the type says so).
 */
export const es = {
  ...esCommon,
  ...esSignIn,
  ...esApiKey,
  ...esOverview,
  ...esInvoices,
  ...esInvoiceDetail,
  ...esInvoiceCorrection,
  ...esWebhooks,
  ...esSystems,
  ...esChain,
  ...esTaxpayers,
  ...esSandbox,
  ...esOperatingMode,
  ...esKeptRecords,
  ...esTaxIds,
  ...esKeptRecipientCheck,
  ...esNewInvoice,
} as const;

/** The shape every language's catalogue has. */
export type Catalogue = Widen<typeof es>;
