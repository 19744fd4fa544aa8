import { accountRouteDocs } from '../account/account-routes';
import { authRouteDocs } from '../auth/auth-routes';
import { chainRouteDocs } from '../chain/chain-routes';
import { healthRouteDocs } from '../health/health-routes';
import { invoiceBatchRouteDocs } from '../invoices/invoice-batch-routes';
import { invoiceResendRouteDocs } from '../invoices/invoice-resend-routes';
import { invoiceRouteDocs } from '../invoices/invoice-routes';
import { qrRouteDocs } from '../qr/qr-routes';
import { systemRouteDocs } from '../systems/system-routes';
import { taxpayerRouteDocs } from '../taxpayers/taxpayer-routes';
import { webhookRouteDocs } from '../webhooks/webhook-routes';
import { recordVerificationRouteDocs } from '../verification/record-verification-routes';
import { openApiRouteDocs } from './openapi-routes';
import type { RouteDoc } from './route-doc';

/** Every operation of /api/v1: a router mounted in create-app.ts must add its docs here (the contract test checks). */
export const apiRouteDocs: RouteDoc[] = [
  ...healthRouteDocs,
  ...openApiRouteDocs,
  ...authRouteDocs,
  ...accountRouteDocs,
  ...taxpayerRouteDocs,
  ...systemRouteDocs,
  ...invoiceRouteDocs,
  ...recordVerificationRouteDocs,
  ...invoiceBatchRouteDocs,
  ...invoiceResendRouteDocs,
  ...chainRouteDocs,
  ...qrRouteDocs,
  ...webhookRouteDocs,
];
