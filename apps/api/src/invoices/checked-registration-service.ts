import type { Logger } from 'pino';
import type { RegisteredInvoice } from '@vf/chain';
import type { AccountWithPlan, SealedAnswer } from '@vf/db';
import type { RecipientCheck, TaxIdAnswer } from '@vf/contract';
import { checkRecipients } from '../tax-ids/recipient-check';
import type { TaxIdCheckService } from '../tax-ids/tax-id-check-service';
import type { InvoiceRegistrationService } from './invoice-registration-service';

export interface CheckedRegistration {
  registered: RegisteredInvoice;
  /** What the census and VIES said of the recipients (empty when no check was made). */
  recipientCheck: TaxIdAnswer[];
}

/**
 * Registrations that check their recipients first (`recipient_check`, or the account's default), for the API's route
 * and the dashboard's invoice form alike: a valid invoice first, then its recipients, decided before anything enters
 * the chain; a refusal is thrown with nothing written, and what was said is kept on the invoice after its commit.
 */
export function createCheckedRegistrationService(deps: { registration: InvoiceRegistrationService; taxIdChecks: TaxIdCheckService }) {
  const { registration, taxIdChecks } = deps;
  return {
    /**
     * `mode` null registers without a check. `answer`: with an Idempotency-Key, the answer to seal with the
     * registration, given what the recipients' check said.
     */
    async register(
      account: AccountWithPlan,
      body: unknown,
      log: Logger,
      mode: RecipientCheck | null,
      opts: { answer?: (checked: TaxIdAnswer[]) => ((r: RegisteredInvoice) => SealedAnswer) | undefined; scenario?: string } = {},
    ): Promise<CheckedRegistration> {
      if (!mode) {
        const registered = await registration.register(account, body, log, opts.answer?.([]), opts.scenario);
        return { registered, recipientCheck: [] };
      }
      await registration.validate(account.id, body);
      const [checked] = await checkRecipients(taxIdChecks, account.id, [body], mode);
      if (checked!.refusal) throw checked!.refusal;
      const registered = await registration.register(account, body, log, opts.answer?.(checked!.answers), opts.scenario);
      await taxIdChecks.keepOnInvoices([{ invoiceId: registered.id, answers: checked!.answers }]);
      return { registered, recipientCheck: checked!.answers };
    },
  };
}

export type CheckedRegistrationService = ReturnType<typeof createCheckedRegistrationService>;
