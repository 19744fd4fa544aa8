import { codeBehaviour } from '../authority-codes';
import type { AuthorityStatus } from '../status';
import type { WebhookEventType } from '../webhooks';
import type { SandboxScenario } from './scenario-catalogue';

/** What a registration under a scenario ends as: what an integrator's own tests can assert. */
export interface ScenarioExpectation {
  /** The record's final status. */
  status: AuthorityStatus;
  /** The record's `authority_code` at the end (null when the authority answered none). */
  code: number | null;
  /** How many messages carried the record: exactly `min` unless `max` says otherwise (null: no upper bound). */
  sends: { min: number; max: number | null };
  /** The webhook event types the invoice fires, in the order each first comes. */
  webhooks: WebhookEventType[];
}

const OUTCOME_EVENT: Partial<Record<AuthorityStatus, WebhookEventType>> = {
  accepted: 'invoice.accepted',
  accepted_with_warnings: 'invoice.accepted',
  rejected: 'invoice.rejected',
  error: 'invoice.error',
};

function ending(status: AuthorityStatus, code: number | null, sends: number, max: number | null = sends): ScenarioExpectation {
  const outcome = OUTCOME_EVENT[status];
  return {
    status,
    code,
    sends: { min: sends, max },
    webhooks: ['invoice.registered', 'invoice.status_changed', ...(outcome ? [outcome] : [])],
  };
}

/** A first send refused with `code` (the record alone, or the whole message): what the service then does, by its catalogue. */
function refusedOnce(code: number, whole: boolean): ScenarioExpectation {
  const { action } = codeBehaviour(code);
  // A retry code, or a 3000 for a record the authority does not hold: the record goes again, and the next send passes.
  if (action === 'retry' || code === 3000) return ending('accepted', null, 2);
  if (whole || action === 'error' || action === 'stop') return ending('error', code, 1);
  return ending('rejected', code, 1);
}

/**
 * The outcome of registering an invoice under the scenario, as the service's code catalogue prescribes (see
 * docs/decisions/0016-one-code-catalogue-drives-the-sender.md); the end-to-end test of every scenario holds the
 * service to it.
 */
export function expectedOutcome(scenario: SandboxScenario): ScenarioExpectation {
  switch (scenario.name) {
    case 'accepted_with_errors':
      return ending('accepted_with_warnings', scenario.code!, 1);
    case 'rejected':
      return refusedOnce(scenario.code!, false);
    case 'message_refused':
      return refusedOnce(scenario.code!, true);
    case 'reply_lost':
      return ending('accepted', null, 2);
    case 'authority_down':
      return ending('accepted', null, 2, null);
    default:
      return ending('accepted', null, 1);
  }
}
