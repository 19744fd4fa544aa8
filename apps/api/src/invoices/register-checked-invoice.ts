import type { Request, Response } from 'express';
import type { AccountWithPlan } from '@vf/db';
import { sealedAnswerFor, sendAnswer } from '../idempotency/sealed-answer';
import { checkRecipients, withRecipientCheck, type RecipientCheck } from '../tax-ids/recipient-check';
import type { TaxIdCheckService } from '../tax-ids/tax-id-check-service';
import type { InvoiceRegistrationService } from './invoice-registration-service';
import { registeredAnswer } from './registered-answer';

/**
 * A registration that checks its recipients first (asked with `recipient_check`, or the account's default), decided
 * before anything enters the chain: a valid invoice first, then its recipients; what the census said goes in the
 * answer and is kept on the invoice.
 */
export async function registerCheckedInvoice(
  deps: { registration: InvoiceRegistrationService; taxIdChecks: TaxIdCheckService },
  req: Request,
  res: Response,
  account: AccountWithPlan,
  mode: RecipientCheck | null,
  scenario: string | undefined,
): Promise<void> {
  // An account whose default was removed since its chain read said it had one: registered without a check.
  if (!mode) {
    const r = await deps.registration.register(account, req.body, req.log, sealedAnswerFor(res, registeredAnswer), scenario);
    return sendAnswer(res, registeredAnswer, r);
  }
  await deps.registration.validate(account.id, req.body);
  const [checked] = await checkRecipients(deps.taxIdChecks, account.id, [req.body], mode);
  if (checked!.refusal) throw checked!.refusal;
  const answer = withRecipientCheck(registeredAnswer, checked!.answers);
  const registered = await deps.registration.register(account, req.body, req.log, sealedAnswerFor(res, answer), scenario);
  await deps.taxIdChecks.keepOnInvoices([{ invoiceId: registered.id, answers: checked!.answers }]);
  sendAnswer(res, answer, registered);
}
