export type Environment = 'sandbox' | 'production';

/** The head of a taxpayer's chain in one environment. */
export interface ChainView {
  nif: string;
  environment: Environment;
  /** The environment the taxpayer registers in now. */
  currentEnvironment: Environment;
  lastHash: string | null;
  totalRecords: number;
  lastRecordAt: Date | null;
}
