import { randomUUID } from 'node:crypto';
import { accounts } from '@vf/db';
import { createTestDatabase, type TestDatabase } from '@vf/db/testing';
import { createSessionService } from './session-service';

const HOUR = 60 * 60 * 1000;
let db: TestDatabase;
let accountId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  const [row] = await db.db
    .insert(accounts)
    .values({
      name: 'S',
      email: `${randomUUID()}@example.test`,
      passwordHash: 'x',
      apiKeyDigest: randomUUID(),
      apiKeyHint: 'vfk_x…',
      planId: 'free',
    })
    .returning({ id: accounts.id });
  accountId = row.id;
});
afterAll(() => db.destroy());

function clockAt(start: Date) {
  let now = start.getTime();
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

describe('session expiry (sliding 12 h, at most 7 days)', () => {
  const policy = { idleMs: 12 * HOUR, absoluteMs: 7 * 24 * HOUR };

  it('ends a session left unused for longer than the idle time', async () => {
    const clock = clockAt(new Date('2026-01-05T09:00:00Z'));
    const sessions = createSessionService({ db: db.db, policy, now: clock.now });
    const { token } = await sessions.start(accountId);
    clock.advance(12 * HOUR + 1000);
    expect(await sessions.resume(token)).toBeUndefined();
  });

  it('keeps a session in use alive past the first idle time', async () => {
    const clock = clockAt(new Date('2026-01-05T09:00:00Z'));
    const sessions = createSessionService({ db: db.db, policy, now: clock.now });
    const { token } = await sessions.start(accountId);
    for (let i = 0; i < 4; i++) {
      clock.advance(10 * HOUR);
      expect(await sessions.resume(token)).toMatchObject({ accountId });
    }
  });

  it('ends even a busy session seven days after sign-in', async () => {
    const clock = clockAt(new Date('2026-01-05T09:00:00Z'));
    const sessions = createSessionService({ db: db.db, policy, now: clock.now });
    const { token } = await sessions.start(accountId);
    for (let i = 0; i < 17; i++) {
      clock.advance(10 * HOUR);
      await sessions.resume(token);
    }
    expect(clock.now().getTime() - new Date('2026-01-05T09:00:00Z').getTime()).toBeGreaterThan(7 * 24 * HOUR);
    expect(await sessions.resume(token)).toBeUndefined();
  });

  it('does not know a token it never issued', async () => {
    const sessions = createSessionService({ db: db.db, policy });
    expect(await sessions.resume('made-up-token')).toBeUndefined();
  });
});
