import { eq } from 'drizzle-orm';
import request from 'supertest';
import { invoices } from '@vf/db';
import { createSystem, createTaxpayer, invoiceBody, createTestApp, type TestApp, lastTwelveMonths } from '@vf/api/testing';
import { signUp } from '../testing/dashboard-agent';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const monthsAgo = (n: number) => {
  const d = new Date();
  d.setUTCDate(15);
  d.setUTCMonth(d.getUTCMonth() - n);
  return d;
};

describe('monthly chart on the overview', () => {
  it('draws the last 12 months of registrations by status as SVG, with a title, a description and a table of the same figures', async () => {
    const a = await signUp(t.app, 'Gestoría Ejemplo', 'es');
    const taxpayerId = await createTaxpayer(t.app, { ...a });
    const systemId = await createSystem(t.app, { ...a });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(
        (await request(t.app).post('/api/v1/invoices').set(a.auth).send(invoiceBody(taxpayerId, systemId)).expect(201)).body.data.id,
      );
    // Two accepted this month, one rejected three months ago, one from 13 months ago (outside the chart), one queued now.
    await t.db.db.update(invoices).set({ authorityStatus: 'accepted' }).where(eq(invoices.id, ids[0]));
    await t.db.db.update(invoices).set({ authorityStatus: 'accepted' }).where(eq(invoices.id, ids[1]));
    await t.db.db
      .update(invoices)
      .set({ authorityStatus: 'rejected', createdAt: monthsAgo(3) })
      .where(eq(invoices.id, ids[2]));
    await t.db.db
      .update(invoices)
      .set({ createdAt: monthsAgo(13) })
      .where(eq(invoices.id, ids[3]));

    const page = (await a.agent.get('/app').expect(200)).text;
    const chart = /<section class="card" aria-labelledby="chart-heading" data-testid="monthly-chart">([\s\S]*?)<\/section>/.exec(page)![1];
    const svg = /<svg [\s\S]*?<\/svg>/.exec(chart)![0];
    // An image with a name and a description a screen reader reads, no script and nothing from another site.
    expect(svg).toMatch(/^<svg class="chart" viewBox="0 0 720 260" role="img" aria-labelledby="chart-svg-title chart-svg-desc"/);
    expect(svg).toContain('<title id="chart-svg-title">Registros por estado, últimos 12 meses</title>');
    const desc = /<desc id="chart-svg-desc">([^<]+)<\/desc>/.exec(svg)![1];
    expect(desc).toContain('4 en total');
    expect(desc).toContain('Aceptada: 2; Rechazada: 1');
    expect(desc).toContain('En cola: 1');
    expect(page).not.toMatch(/<script(?! src="\/assets\/)/);

    // Twelve bars, one per month, oldest first, ending with this month.
    const months = [...svg.matchAll(/<g data-month="(\d{4}-\d{2})">/g)].map((m) => m[1]);
    expect(months).toEqual(lastTwelveMonths(new Date()));
    const segments = [...svg.matchAll(/<g data-month="(\d{4}-\d{2})">([\s\S]*?)<\/g>/g)].flatMap((g) =>
      [...g[2].matchAll(/data-status="([a-z_]+)" data-count="(\d+)"/g)].map((s) => `${g[1]} ${s[1]} ${s[2]}`),
    );
    expect(segments.sort()).toEqual([`${months[8]} rejected 1`, `${months[11]} accepted 2`, `${months[11]} queued 1`].sort());
    // Taller bars for more registrations: heights are proportional.
    const height = (status: string) => Number(new RegExp(`height="([\\d.]+)" data-status="${status}"`).exec(svg)![1]);
    expect(height('accepted')).toBeCloseTo(2 * height('queued'), 0);

    // The same figures as a table: a row per month, a column per status and the total.
    const table = /<table data-testid="chart-table">([\s\S]*?)<\/table>/.exec(chart)![1];
    expect(table).toContain('<caption class="visually-hidden">Registros por estado, últimos 12 meses</caption>');
    const rows = [...table.matchAll(/<tr><th scope="row">([^<]+)<\/th>((?:<td class="num">\d+<\/td>)+)<\/tr>/g)];
    expect(rows).toHaveLength(12);
    const figures = (row: RegExpMatchArray) => [...row[2].matchAll(/>(\d+)</g)].map((m) => Number(m[1]));
    // Columns: queued, sent, accepted, accepted with warnings, rejected, error, kept (NO VERI*FACTU), total.
    expect(figures(rows[11])).toEqual([1, 0, 2, 0, 0, 0, 0, 3]);
    expect(figures(rows[8])).toEqual([0, 0, 0, 0, 1, 0, 0, 1]);
    expect(figures(rows[0])).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('says there is nothing yet for a new account, still with twelve months in the table', async () => {
    const a = await signUp(t.app, 'Gestoría Ejemplo', 'en');
    const page = (await a.agent.get('/app').expect(200)).text;
    expect(page).toContain('No registrations in the last 12 months yet.');
    expect(page).toContain('<title id="chart-svg-title">Registrations by status, last 12 months</title>');
    expect([...page.matchAll(/<tr><th scope="row">/g)]).toHaveLength(12);
  });
});
