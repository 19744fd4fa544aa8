/** A registration's check of its recipients: `warn` registers and reports, `refuse` registers nothing on a bad one. */
export type RecipientCheck = 'warn' | 'refuse';

/** PUT /account/settings: the settings an account changes itself (`recipient_check` null: no check by default). */
export interface AccountSettings {
  recipient_check: RecipientCheck | null;
}
