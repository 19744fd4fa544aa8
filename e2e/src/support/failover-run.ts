import { expectExactChain } from '@vf/api/testing';
import { SteadyRegistrations } from './steady-registrations';
import type { Party, WorkerTestEnv } from './worker-test-env';

/**
 * What a failover test does around the failover: two taxpayers registering steadily and two workers sending, then,
 * once the failover is through, more registrations answered and the checks that nothing was lost or sent twice.
 */
export class FailoverRun {
  private constructor(
    private readonly env: WorkerTestEnv,
    readonly taxpayers: { id: string; nif: string }[],
    readonly clients: SteadyRegistrations[],
  ) {}

  /** Starts the registrations and the sending; resolves once each taxpayer has `count` registrations answered 201. */
  static async start(env: WorkerTestEnv, party: Party, count: number): Promise<FailoverRun> {
    const taxpayers = await Promise.all([1, 2].map(() => env.taxpayer(party, { certificate: 'own' })));
    await Promise.all([env.startWorker(), env.startWorker()]);
    const run = new FailoverRun(
      env,
      taxpayers,
      taxpayers.map((t) => new SteadyRegistrations(env.api, party, t.id)),
    );
    await Promise.all(run.clients.map((c) => c.reached(count)));
    return run;
  }

  /** Waits for `count` more registrations answered per taxpayer, stops the clients, and returns the longest refusal. */
  async goOn(count: number): Promise<number> {
    await Promise.all(this.clients.map((c) => c.reached(c.ids.length + count)));
    await this.stop();
    return Math.max(0, ...this.clients.flatMap((c) => c.refusedSeconds));
  }

  async stop(): Promise<void> {
    await Promise.all(this.clients.map((c) => c.stop()));
  }

  /**
   * Every answer a refusal to retry later or a 201; every registration answered 201 accepted by the authority, once,
   * in an exact chain; the retried ones one record each.
   */
  async expectNothingLostOrSentTwice(): Promise<void> {
    expect(this.clients.flatMap((c) => c.unexpected)).toEqual([]);
    const answered = this.clients.flatMap((c) => c.ids);
    const states = await this.env.settled(answered);
    expect(states).toHaveLength(answered.length);
    expect(new Set(states.map((s) => s.status))).toEqual(new Set(['accepted']));
    for (const [i, taxpayer] of this.taxpayers.entries()) {
      const chain = await expectExactChain(this.env.db.db, taxpayer.id);
      expect(chain.map((r) => r.id).sort()).toEqual([...this.clients[i].ids].sort());
      expect(this.env.sim.state.counters.registeredByNif[taxpayer.nif].map((r) => r.hash)).toEqual(chain.map((r) => r.hash));
    }
    expect(this.env.sim.state.counters).toMatchObject({ duplicates: 0, chainMismatches: 0 });
  }
}
