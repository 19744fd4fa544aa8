export {
  createRegistrationAppender,
  wakeChainSendersAfterAppend,
  type RegistrationAppender,
  type RegistrationAppenderDeps,
} from './append/registration-appender';
export type { ApiKeyOwner, AppendedChain, AppendOutcome, AppendRequest } from './append/append-attempts';
export type { RecordAppended, RecordRequest } from './append/append-record';
export { ChainRefusedError, type ChainRefusal } from './append/chain-refusal';
export {
  changeMode,
  generationTime,
  modeAt,
  nextPlace,
  OPERATING_MODES,
  quotaPeriod,
  recordWrite,
  usableBy,
  type ChainMode,
  type GenerationTime,
  type ItemOutcome,
  type ModeChange,
  type OperatingMode,
  type PlanOptions,
  type QuotaPeriod,
  type RegisteredInvoice,
  type RegistrationItem,
} from './append/plan-registrations';
export {
  altaRecordRow,
  HashMismatchError,
  rebuildChainRecord,
  storedContentOf,
  systemSnapshot,
  type AltaRowInput,
  type ChainPlace,
  type PreviousRecord,
} from './records/chain-record-row';
export { cancellationRecordRow, type CancellationRowInput, type CancelledRecord } from './records/cancellation-record-row';
export { newRecordId } from './records/new-record-id';
// Loaded with the package: a process that signs or reads signed records can keep and rebuild them as parts.
export { signedRecordForms } from './records/signed-record-forms';
export { NO_SIGNER, SignerUnavailableError, type RecordSigner } from './kept/record-signer';
export { checkChainHead, CLOCK_TOLERANCE_MS, type HeadAnomaly } from './kept/check-chain-head';
export { appendEvent, appendEventToSystems, type AppendedEvent, type EventRequest } from './events/append-event';
export { declareBackupRestored, EVENT_TEXT_MAX, recordOtherEvent } from './events/declared-events';
export { certificateSigner } from './kept/certificate-signer';
export { periodEndAfter, SUMMARY_PERIOD_MS, summarise, writeDueSummaries, type SummaryDeps } from './events/six-hour-summaries';
export { MAX_CHECKED_LINKS, runIntegrityCheck, type CheckRequest } from './checks/run-integrity-check';
export { checkPeriodStart, PERIODIC_CHECK_MS, runDuePeriodicChecks, type PeriodicCheck } from './checks/periodic-full-check';
export { exportPeriod, MAX_EXPORTED, type ExportedItem, type ExportRequest, type PeriodExport } from './exports/export-period';
