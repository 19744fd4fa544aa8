import { certificateSigner, createRegistrationAppender, wakeChainSendersAfterAppend } from '@vf/chain';
import { parseAllowedHosts } from '@vf/webhook-destination';
import { createAccountActivityService } from './account/account-activity-service';
import { createAccountService } from './account/account-service';
import type { AppDeps } from './app-deps';
import { createAuthService } from './auth/auth-service';
import { createSessionService } from './auth/session-service';
import { createSignInService } from './auth/sign-in-service';
import { createCredentialThrottle } from './auth/credential-throttle';
import { createPasswordHasher } from './auth/password-hasher';
import { createChainService } from './chain/chain-service';
import { createHealthService } from './health/health-service';
import { createIdempotencyService } from './idempotency/idempotency-service';
import { createInvoiceExportService } from './invoices/invoice-export-service';
import { createInvoiceCancellationService } from './invoices/invoice-cancellation-service';
import { createInvoiceCorrectionService } from './invoices/invoice-correction-service';
import { createInvoiceQueryService } from './invoices/invoice-query-service';
import { createInvoiceRegistrationService } from './invoices/invoice-registration-service';
import { registerBatch } from './invoices/register-batch';
import { createCheckedRegistrationService } from './invoices/checked-registration-service';
import { createInvoiceResendService } from './invoices/invoice-resend-service';
import { createInvoiceQrService } from './qr/invoice-qr-service';
import { createSystemService } from './systems/system-service';
import { createCertificateIntake } from './taxpayers/certificate-intake';
import { createTaxpayerService } from './taxpayers/taxpayer-service';
import { createCensusGateway, createViesGateway } from '@vf/tax-ids';
import { createTaxIdCheckService } from './tax-ids/tax-id-check-service';
import { createRemissionService } from './remissions/remission-service';
import { createTaxIdListService } from './tax-ids/tax-id-list-service';
import { createWebhookService } from './webhooks/webhook-service';
import { createRecordVerificationService } from './verification/record-verification-service';
import { createSignerPolicy } from './verification/signer-policy';
import { createChainVerificationService } from './chain/chain-verification-service';
import { createEventLogService } from './operating-mode/event-log-service';
import { createIntegrityCheckService } from './operating-mode/integrity-check-service';
import { createPeriodExportService } from './operating-mode/period-export-service';
import { requestedScenario, scenarioChainOf } from './sandbox/sandbox-scenario-request';

/** The composition root: every service of the API (the dashboard's too: it is handed them), built once from the app's dependencies. */
export function composeServices(deps: AppDeps) {
  const { db } = deps;
  const clock = deps.clock ?? (() => new Date());
  const intake = createCertificateIntake({ certificateDir: deps.config.certificateDir, masterKey: deps.config.masterKey, clock });
  const invoices = createInvoiceQueryService({ db });
  const invoiceExport = createInvoiceExportService({ db });
  const passwords = createPasswordHasher(deps.config.passwordHashCost);
  // The app's Redis namespace is its queue prefix: one deployment (or test) never sees another's counters.
  const throttle = createCredentialThrottle({ redis: deps.redis, prefix: deps.config.queuePrefix, limits: deps.throttleLimits });
  const account = createAccountService({ db, clock });
  const { masterKey, platformCertificate } = deps.config;
  // Signs NO VERI*FACTU records as they are registered (and checks a taxpayer can be signed for before it starts).
  const signer = certificateSigner({ db, masterKey, platformCertificate, clock });
  const taxpayers = createTaxpayerService({ db, intake, clock, signer });
  const sessions = createSessionService({ db, now: clock });
  const signers = createSignerPolicy(deps.config.platformCertificate);
  const enqueueTimeoutMs = deps.enqueueTimeoutMs ?? 2_000;
  // The process's one writer of chain records: registrations, corrections and cancellations all append through it.
  const writer = createRegistrationAppender({
    db,
    clock,
    signer,
    afterAppend: wakeChainSendersAfterAppend(deps.queues, enqueueTimeoutMs),
  });
  const registration = createInvoiceRegistrationService({ db, writer, clock, requestedScenario, scenarioChainOf, registerBatch });
  const { authority } = deps.config;
  const census = authority && createCensusGateway(authority, { masterKey, platformCertificate });
  const vies = deps.config.vies && createViesGateway(deps.config.vies, authority);
  const taxIdChecks = createTaxIdCheckService({ db, census, vies, clock });
  return {
    clock,
    auth: createAuthService({ db, passwords, throttle }),
    account,
    taxpayers,
    eventLog: createEventLogService({ db, signer, clock }),
    integrityChecks: createIntegrityCheckService({ db, signer, clock }),
    periodExports: createPeriodExportService({ db, signer, clock }),
    systems: createSystemService({ db }),
    registration,
    checkedRegistration: createCheckedRegistrationService({ registration, taxIdChecks }),
    writer,
    correction: createInvoiceCorrectionService({ db, writer, registration }),
    invoices,
    recordVerification: createRecordVerificationService({ invoices, signers }),
    invoiceExport,
    resend: createInvoiceResendService({ db, queues: deps.queues, enqueueTimeoutMs }),
    cancellation: createInvoiceCancellationService({ db, writer }),
    chain: createChainService({ db }),
    taxIdChecks,
    taxIdLists: createTaxIdListService({ db, queues: deps.queues, enqueueTimeoutMs, checks: taxIdChecks }),
    remissions: createRemissionService({ db, queues: deps.queues, enqueueTimeoutMs }),
    qr: createInvoiceQrService({ db }),
    idempotency: createIdempotencyService({ db, masterKey: deps.config.masterKey }),
    webhooks: createWebhookService({
      db,
      masterKey: deps.config.masterKey,
      clock,
      destinations: { allowed: parseAllowedHosts(deps.config.webhooks?.allowedHosts ?? []), resolve: deps.resolveHost },
    }),
    health: createHealthService({ db, redis: deps.redis, timeoutMs: deps.healthTimeoutMs ?? 2_000 }),
    // What the dashboard signs in with: the API's hasher and throttle, so an account paused on one path is paused on every path.
    sessions,
    signIn: createSignInService({ db, passwords, sessions, throttle }),
    overview: createAccountActivityService({ db, accounts: account }),
    chainVerification: createChainVerificationService({ db, signers }),
  };
}

export type Services = ReturnType<typeof composeServices>;
