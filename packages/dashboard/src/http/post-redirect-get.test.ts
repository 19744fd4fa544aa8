import { eq } from 'drizzle-orm';
import request from 'supertest';
import { accounts } from '@vf/db';
import { createTaxpayer, createTestApp, type TestApp } from '@vf/api/testing';
import { NEW_KEY_COOKIE } from '../one-time/new-key-flash';
import { browser, csrfTokenIn, signIn, signUp, submitForm } from '../testing/dashboard-agent';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const shownKey = (page: string) => /data-testid="new-api-key">([^<]+)</.exec(page)?.[1];
const setCookies = (res: request.Response) => ([] as string[]).concat(res.headers['set-cookie'] ?? []);

async function hintOf(email: string): Promise<string> {
  const [row] = await t.db.db.select({ hint: accounts.apiKeyHint }).from(accounts).where(eq(accounts.email, email));
  return row.hint;
}

describe('POST-redirect-GET', () => {
  it('sign-up redirects to a welcome page that shows the first key once; reloading it neither shows it again nor creates anything', async () => {
    const agent = browser(t.app);
    const email = `prg-${Date.now()}@example.test`;
    const posted = await submitForm(agent, '/signup', '/signup', {
      name: 'Gestoría PRG',
      email,
      password: 'a long enough password',
      password_confirmation: 'a long enough password',
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toBe('/app/welcome');
    const welcome = await agent.get('/app/welcome').expect(200);
    const key = shownKey(welcome.text)!;
    expect(key).toMatch(/^vfk_/);
    // Never in a URL, never readable in the cookie that carried it across the redirect.
    expect(posted.headers.location).not.toContain(key);
    expect(setCookies(posted).join('\n')).not.toContain(key);
    expect(setCookies(welcome).find((c) => c.startsWith(`${NEW_KEY_COOKIE}=;`))).toBeDefined();

    const reload = await agent.get('/app/welcome').expect(303);
    expect(reload.headers.location).toBe('/app');
    await request(t.app).get('/api/v1/account').set('Authorization', `Bearer ${key}`).expect(200);
  });

  it('the API key page shows a regenerated key once, and reloading it issues no second key', async () => {
    const a = await signUp(t.app);
    const posted = await submitForm(a.agent, '/app/api-key', '/app/api-key/regenerate', {});
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toBe('/app/api-key');
    const shown = await a.agent.get('/app/api-key').expect(200);
    const key = shownKey(shown.text)!;
    const hint = await hintOf(a.email);
    expect(key.startsWith(hint.replace('…', ''))).toBe(true);

    for (let reload = 0; reload < 2; reload++) {
      const page = (await a.agent.get('/app/api-key').expect(200)).text;
      expect(shownKey(page)).toBeUndefined();
      expect(page).toContain(`<code data-testid="api-key-hint">${hint}</code>`);
    }
    // Still the same key: the reloads issued nothing.
    expect(await hintOf(a.email)).toBe(hint);
    await request(t.app).get('/api/v1/account').set('Authorization', `Bearer ${key}`).expect(200);
  });

  it('a held key opens only in the session it was issued to', async () => {
    const a = await signUp(t.app);
    const posted = await submitForm(a.agent, '/app/api-key', '/app/api-key/regenerate', {});
    const held = setCookies(posted)
      .find((c) => c.startsWith(`${NEW_KEY_COOKIE}=`))!
      .split(';')[0];
    const other = await signIn(t.app, a.email, a.password);
    const page = (await other.get('/app/api-key').set('Cookie', held).expect(200)).text;
    expect(shownKey(page)).toBeUndefined();
  });

  it('every other form that changes something answers with a redirect to a page', async () => {
    const a = await signUp(t.app);
    const taxpayerId = await createTaxpayer(t.app, { ...a });
    const expectRedirect = async (res: request.Response, to: RegExp) => {
      expect({ status: res.status, location: res.headers.location }).toEqual({ status: 303, location: expect.stringMatching(to) });
      // Where it leads is a page a reload can ask for again without repeating anything.
      if (res.headers.location.startsWith('/app')) await a.agent.get(res.headers.location).expect(200);
    };

    const system = {
      vendor_name: 'Software Vendor SL',
      vendor_nif: 'B85905495',
      name: 'Facturador',
      version: '1.0',
      installation_number: 'INST-1',
      only_supports_verifactu: 'true',
    };
    const created = await submitForm(a.agent, '/app/systems/new', '/app/systems', system);
    await expectRedirect(created, /^\/app\/systems\/[0-9a-f-]{36}\?notice=system_created$/);
    const systemPath = created.headers.location.split('?')[0];
    await expectRedirect(await submitForm(a.agent, systemPath, systemPath, { ...system, version: '1.1' }), /\?notice=system_saved$/);
    await expectRedirect(await submitForm(a.agent, systemPath, `${systemPath}/delete`, {}), /^\/app\/systems\?notice=system_deleted$/);

    const taxpayerPath = `/app/taxpayers/${taxpayerId}`;
    const { nif } = (await request(t.app).get(`/api/v1/taxpayers/${taxpayerId}`).set(a.auth).expect(200)).body.data;
    await expectRedirect(
      await submitForm(a.agent, taxpayerPath, taxpayerPath, { nif, name: 'Nuevo nombre SL' }),
      /\?notice=taxpayer_saved$/,
    );
    await expectRedirect(
      await submitForm(a.agent, taxpayerPath, `${taxpayerPath}/delete`, {}),
      /^\/app\/taxpayers\?notice=taxpayer_deleted$/,
    );

    const signedOut = await a.agent
      .post('/logout')
      .type('form')
      .send({ _csrf: csrfTokenIn((await a.agent.get('/app').expect(200)).text) });
    expect({ status: signedOut.status, location: signedOut.headers.location }).toEqual({ status: 303, location: '/login?signed_out=1' });
    const signedIn = await submitForm(a.agent, '/login', '/login', { email: a.email, password: a.password });
    expect({ status: signedIn.status, location: signedIn.headers.location }).toEqual({ status: 303, location: '/app' });
  });
});
