import { accountSettingsSchema } from './account/account-schemas';
import { credentialsSchema, registerSchema } from './auth/auth-schemas';
import type { Services } from './compose';
import type { ApiProblems, DashboardApi } from '@vf/dashboard';
import { ApiError } from './errors/api-error';
import { cutShort, toApiError } from './errors/error-handler';
import { clientAddress } from './http/client-address';
import { controlCharacterField, invalidCharacters, rejectControlCharactersInQuery } from './http/input-guard';
import { isUuid } from './http/is-uuid';
import { parseWith } from './http/parse-with';
import { invoiceListSchema } from './invoices/invoice-list-schema';
import { checkBodySchema } from './operating-mode/integrity-check-routes';
import { exportBodySchema } from './operating-mode/period-export-routes';
import { remissionCreateSchema } from './remissions/remission-schemas';
import { renderBreakdownLine } from './invoices/invoice-view';
import { sendQrImage } from './qr/send-qr-image';
import { systemCreateSchema, systemUpdateSchema } from './systems/system-schemas';
import { taxpayerCreateSchema, taxpayerUpdateSchema } from './taxpayers/taxpayer-schemas';
import { certificateWarnings, EXPIRY_WARNING_DAYS } from './taxpayers/taxpayer-view';
import { readTaxIdCsv } from './tax-ids/read-tax-id-csv';
import { taxIdListSchema } from './tax-ids/tax-id-list-schemas';
import { webhookCreateSchema } from './webhooks/webhook-schemas';

/** The API's one error type, as the dashboard raises and reads it. */
export const apiProblems: ApiProblems = {
  of: (err) => (err instanceof ApiError ? err : undefined),
  known: toApiError,
  create: (code, detail) => new ApiError(code, detail),
  validation: (issues) => ApiError.validation(issues),
  cutShort,
  controlCharacterField: (body) => controlCharacterField(body),
  invalidCharacters,
  rejectControlCharactersInQuery,
};

/**
 * What the dashboard is given when the API mounts it: the API's services, request schemas, error type and readings,
 * in the shapes the dashboard declares (it imports nothing of the API).
 */
export function dashboardApi(services: Services): DashboardApi {
  return {
    clock: services.clock,
    // Only what the dashboard declares: it gets no service it does not use (no idempotency, no health, ...).
    services: {
      auth: services.auth,
      signIn: services.signIn,
      sessions: services.sessions,
      overview: services.overview,
      invoices: services.invoices,
      invoiceExport: services.invoiceExport,
      registration: services.registration,
      checkedRegistration: services.checkedRegistration,
      correction: services.correction,
      cancellation: services.cancellation,
      resend: services.resend,
      qr: services.qr,
      taxpayers: services.taxpayers,
      eventLog: services.eventLog,
      integrityChecks: services.integrityChecks,
      periodExports: services.periodExports,
      remissions: services.remissions,
      chain: services.chain,
      chainVerification: services.chainVerification,
      systems: services.systems,
      account: services.account,
      taxIdChecks: services.taxIdChecks,
      taxIdLists: services.taxIdLists,
      webhooks: services.webhooks,
    },
    requests: {
      invoiceList: (input) => parseWith(invoiceListSchema, input),
      credentials: (input) => parseWith(credentialsSchema, input),
      register: (input) => parseWith(registerSchema, input),
      systemCreate: (input) => parseWith(systemCreateSchema, input),
      systemUpdate: (input) => parseWith(systemUpdateSchema, input),
      taxpayerCreate: (input) => parseWith(taxpayerCreateSchema, input),
      taxpayerUpdate: (input) => parseWith(taxpayerUpdateSchema, input),
      webhookCreate: (input) => parseWith(webhookCreateSchema, input),
      accountSettings: (input) => parseWith(accountSettingsSchema, input),
      integrityCheck: (input) => parseWith(checkBodySchema, input),
      periodExport: (input) => parseWith(exportBodySchema, input),
      remissionCreate: (input) => parseWith(remissionCreateSchema, input),
      taxIdListCsv: (text) => parseWith(taxIdListSchema, readTaxIdCsv(text)),
    },
    problems: apiProblems,
    views: {
      isUuid,
      clientAddress,
      sendQrImage,
      breakdownLine: renderBreakdownLine,
      certificateWarnings,
      certificateExpiryWarningDays: EXPIRY_WARNING_DAYS,
    },
  };
}
