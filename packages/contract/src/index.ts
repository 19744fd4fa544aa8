// What the API's services take and answer, declared once: the API's services use these types and the dashboard, which the
// API hands those services, reads them. Types only: nothing here runs, so importing it costs nothing at run time.
export type { AccountOverview, AccountUsage, MonthCounts } from './account/account-overview';
export type { AccountSettings, RecipientCheck } from './account/account-settings';
export type { Credentials } from './auth/credentials';
export type { SignInResult, StartedSession } from './auth/sign-in-result';
export type { ChainBreak, ChainRecord, ChainVerification } from './chain/chain-verification';
export type { ChainView, Environment } from './chain/chain-view';
export type { CsvColumn } from './csv/csv-column';
export type { FieldIssue } from './errors/field-issue';
export type { CheckedLink, FoundAnomaly, IntegrityCheckBody, IntegrityCheckReport } from './operating-mode/integrity-check';
export type { PeriodExportArchive, PeriodExportBody } from './operating-mode/period-export';
export type { QrFormat, QrImage } from './qr/qr-image';
export type { RemissionBody } from './remissions/remission-body';
export type {
  CensusTaxIdAnswer,
  TaxIdAnswer,
  TaxIdAnswerJson,
  TaxIdCheckInput,
  TaxIdQuestion,
  ViesTaxIdAnswer,
} from './tax-ids/tax-id-answer';
export type { CertificateWarning } from './taxpayers/certificate-warning';
