import { migrateDatabase } from '@vf/db';
import { PrivateAutoFailover } from '@vf/private-servers';
import { databaseBehind } from '../support/database-behind';
import { FailoverRun } from '../support/failover-run';
import { WorkerTestEnv, type Party } from '../support/worker-test-env';

// A pg_auto_failover formation of the test's own (monitor, primary, synchronous standby), given to the API and two
// workers as one multi-host DATABASE_URL with target_session_attrs=read-write. While invoices are registered and
// sent, the primary's machine is lost (its keeper killed, PostgreSQL stopped with -m immediate) and the monitor
// promotes the standby: the service must follow it without a restart and lose nothing it answered 201 for.
let formation: PrivateAutoFailover;
let env: WorkerTestEnv;
let party: Party;
let run: FailoverRun | undefined;

beforeAll(async () => {
  formation = await PrivateAutoFailover.start();
  env = await WorkerTestEnv.create({
    database: async () => {
      await migrateDatabase(formation.url);
      return databaseBehind(formation.url, () => formation.destroy());
    },
  });
  party = await env.party();
}, 300_000);
afterAll(async () => {
  await run?.stop();
  await env?.close();
});

test('losing the primary while invoices are registered and sent: every 201 kept, chains exact, each record accepted once', async () => {
  run = await FailoverRun.start(env, party, 15);
  const lost = await formation.primaryPort();
  await formation.loseNode(lost);
  expect(await formation.promoted(lost)).not.toBe(lost);
  // Registrations go on against the new primary, through the same pools.
  const refused = await run.goOn(15);
  console.log(
    `PostgreSQL failover: registrations refused (503, or 409 idempotency_in_progress, with Retry-After) for ${refused.toFixed(1)} s`,
  );
  // Retried with their Idempotency-Key, the registrations refused during the failover are one record each.
  await run.expectNothingLostOrSentTwice();
});
