import { sql } from 'drizzle-orm';
import request from 'supertest';
import { certificateSigner, checkPeriodStart, PERIODIC_CHECK_MS, runDuePeriodicChecks } from '@vf/chain';
import { createTestCa, issueCertificate, toPkcs12 } from '@vf/certificates/testing';
import { createSystem, invoiceBody, registerAccount, uniqueNif, type TestAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

const PASSWORD = 'p12-Secret-Pass';
const ca = createTestCa();
const holder = issueCertificate(ca, { commonName: 'CONTRIBUYENTE', nif: '89890001K', notAfter: new Date(Date.now() + 400 * 86_400_000) });
const withCertificate = { certificate_p12_base64: toPkcs12(holder, PASSWORD, ca).toString('base64'), certificate_password: PASSWORD };
const DAY = PERIODIC_CHECK_MS.daily;

let t: TestApp;
let account: TestAccount;
let systemId: string;
beforeAll(async () => {
  t = await createTestApp();
  account = await registerAccount(t.app);
  systemId = await createSystem(t.app, account, { only_supports_verifactu: false });
});
afterAll(() => t.close());

/** A worker of the fleet sweeping with PERIODIC_CHECK=daily: its own signer, the shared database, a clock of the test's. */
const sweep = (at: Date) =>
  runDuePeriodicChecks(t.db.db, {
    signer: certificateSigner({ db: t.db.db, masterKey: t.masterKey, clock: () => new Date() }),
    now: at,
    periodMs: DAY,
  });

const typesOf = async (taxpayerId: string) =>
  ((await request(t.app).get(`/api/v1/taxpayers/${taxpayerId}/events`).set(account.auth).expect(200)).body.data as { type: string }[]).map(
    (e) => e.type,
  );
const count = (types: string[], type: string) => types.filter((x) => x === type).length;
const alarmOf = async (taxpayerId: string) =>
  (await request(t.app).get(`/api/v1/taxpayers/${taxpayerId}`).set(account.auth).expect(200)).body.data.integrity_alarm;

describe('periodic full checks', () => {
  it('count days from midnight UTC and weeks from Monday', () => {
    expect(checkPeriodStart(new Date('2026-11-29T10:27:00Z'), DAY).toISOString()).toBe('2026-11-29T00:00:00.000Z');
    expect(checkPeriodStart(new Date('2026-11-29T10:27:00Z'), PERIODIC_CHECK_MS.weekly).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(checkPeriodStart(new Date('2026-11-23T00:00:00Z'), PERIODIC_CHECK_MS.weekly).toISOString()).toBe('2026-11-23T00:00:00.000Z');
  });

  it('run once per period however many workers sweep, and raise and clear the alarm as an on-demand check does', async () => {
    const tp = (
      await request(t.app)
        .post('/api/v1/taxpayers')
        .set(account.auth)
        .send({ nif: uniqueNif(), name: 'Contribuyente SL', ...withCertificate, operating_mode: 'no_verifactu' })
        .expect(201)
    ).body.data;
    const records: string[] = [];
    for (let n = 0; n < 3; n++) {
      records.push(
        (await request(t.app).post('/api/v1/invoices').set(account.auth).send(invoiceBody(tp.id, systemId)).expect(201)).body.data.id,
      );
    }
    const tomorrow = new Date(checkPeriodStart(new Date(), DAY).getTime() + DAY + 3_600_000);

    // Two workers sweep at once, then again later the same day: one check of the records (03) and of the events (05).
    await Promise.all([sweep(tomorrow), sweep(tomorrow)]);
    await Promise.all([sweep(new Date(tomorrow.getTime() + 3_600_000)), sweep(new Date(tomorrow.getTime() + 7_200_000))]);
    let types = await typesOf(tp.id);
    expect([count(types, '03'), count(types, '05'), count(types, '04'), count(types, '06')]).toEqual([1, 1, 0, 0]);
    expect(await alarmOf(tp.id)).toBe(false);

    // A record changed in the database: the next day's check finds it (04: its huella, and its signed record, rebuilt
    // from the row, no longer verifying) and raises the alarm.
    await t.db.db.execute(sql`UPDATE invoices SET total_amount = '999.00' WHERE id = ${records[1]}`);
    const dayAfter = new Date(tomorrow.getTime() + DAY);
    await Promise.all([sweep(dayAfter), sweep(dayAfter)]);
    types = await typesOf(tp.id);
    expect([count(types, '03'), count(types, '05'), count(types, '04')]).toEqual([2, 2, 2]);
    expect(await alarmOf(tp.id)).toBe(true);

    // Put back, the whole chain is sound again at the next period's check: the alarm is cleared.
    await t.db.db.execute(sql`UPDATE invoices SET total_amount = '121.00' WHERE id = ${records[1]}`);
    await Promise.all([sweep(new Date(dayAfter.getTime() + DAY)), sweep(new Date(dayAfter.getTime() + DAY))]);
    types = await typesOf(tp.id);
    expect([count(types, '03'), count(types, '04')]).toEqual([3, 2]);
    expect(await alarmOf(tp.id)).toBe(false);
  });
});
