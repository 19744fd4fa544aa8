// What the API's services answer, declared once: the API's services return these types and the dashboard, which the
// API hands those services, reads them. Types only: nothing here runs, so importing it costs nothing at run time.
export type { AccountOverview, AccountUsage, MonthCounts } from './account/account-overview';
export type { SignInResult, StartedSession } from './auth/sign-in-result';
export type { ChainBreak, ChainRecord, ChainVerification } from './chain/chain-verification';
export type { ChainView, Environment } from './chain/chain-view';
export type { CsvColumn } from './csv/csv-column';
export type { FieldIssue } from './errors/field-issue';
export type { QrFormat, QrImage } from './qr/qr-image';
export type { CertificateWarning } from './taxpayers/certificate-warning';
