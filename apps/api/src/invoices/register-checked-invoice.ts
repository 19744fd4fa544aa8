import type { Request, Response } from 'express';
import type { RecipientCheck, TaxIdAnswer } from '@vf/contract';
import type { AccountWithPlan } from '@vf/db';
import { sealedAnswerFor, sendAnswer } from '../idempotency/sealed-answer';
import { withRecipientCheck } from '../tax-ids/recipient-check';
import type { CheckedRegistrationService } from './checked-registration-service';
import { registeredAnswer } from './invoice-registration-service';

/** The registration's answer: with a check, what the census and VIES said of its recipients beside `data`. */
const answerOf = (mode: RecipientCheck | null, checked: TaxIdAnswer[]) =>
  mode ? withRecipientCheck(registeredAnswer, checked) : registeredAnswer;

/**
 * A registration that checks its recipients first (asked with `recipient_check`, or the account's default), decided
 * before anything enters the chain; what they said goes in the answer and is kept on the invoice. An account whose
 * default was removed since its chain read said it had one (`mode` null) is registered without a check.
 */
export async function registerCheckedInvoice(
  checkedRegistration: CheckedRegistrationService,
  req: Request,
  res: Response,
  account: AccountWithPlan,
  mode: RecipientCheck | null,
  scenario: string | undefined,
): Promise<void> {
  const done = await checkedRegistration.register(account, req.body, req.log, mode, {
    scenario,
    answer: (checked) => sealedAnswerFor(res, answerOf(mode, checked)),
  });
  sendAnswer(res, answerOf(mode, done.recipientCheck), done.registered);
}
