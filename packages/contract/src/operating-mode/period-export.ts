/** POST /taxpayers/{id}/exports: a period's records, or one system's events. */
export interface PeriodExportBody {
  subject: 'records' | 'events';
  system_id?: string;
  /** ISO instants: from included, to excluded. */
  from: string;
  to: string;
}

/** The export's ZIP and the name it is downloaded under. */
export interface PeriodExportArchive {
  fileName: string;
  zip: Uint8Array;
}
