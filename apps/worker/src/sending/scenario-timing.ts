import type { AppConfig } from '@vf/config';
import { SANDBOX_SCENARIO_HEADER } from '@vf/core';

/**
 * A scenario chain's timing: the simulator answers its messages a waiting time of a second, and a failing scenario
 * chain goes again within seconds, so that an integrator's own test suite sees every outcome quickly. Real sandbox and
 * production chains keep the authority's timing (docs/decisions/0040-scenario-chains-apart.md).
 */
export function scenarioTiming(sender: AppConfig['sender']): AppConfig['sender'] {
  return { ...sender, backoffBaseMs: 500, backoffMaxMs: 2_000, retryMinSeconds: 1 };
}

/** The request headers of a message to the simulator: the scenario its record goes under. */
export function scenarioHeaders(message: { scenario?: string }): Record<string, string> | undefined {
  return message.scenario === undefined ? undefined : { [SANDBOX_SCENARIO_HEADER]: message.scenario };
}
