import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { eq, inArray } from 'drizzle-orm';
import { invoices } from '@vf/db';
import { chromiumPath, invoiceBody, screenshotsDir } from '@vf/api/testing';
import { startE2eStack, type E2eStack } from '../support/dashboard-stack';

/** With VF_SCREENSHOTS=1, one PNG per page visited, at laptop and phone widths (README names this folder). */
const SCREENSHOTS = screenshotsDir();
const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const TAXPAYER_NIF = '89890001K';

jest.setTimeout(300_000);

let stack: E2eStack;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let shot = 0;

/** The page at a phone's width, with its screenshots when they are asked for. */
async function screenshot(name: string): Promise<void> {
  shot += 1;
  const file = path.join(SCREENSHOTS ?? '', `${String(shot).padStart(2, '0')}-${name}`);
  if (SCREENSHOTS) await page.screenshot({ path: `${file}-laptop.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  if (SCREENSHOTS) await page.screenshot({ path: `${file}-phone.png`, fullPage: true });
  // On a phone nothing may need sideways scrolling: tables turn into cards, long values wrap.
  expect({ page: name, width: await page.evaluate(() => document.documentElement.scrollWidth) }).toEqual({
    page: name,
    width: PHONE.width,
  });
  await page.setViewportSize(LAPTOP);
}

async function api(method: string, apiPath: string, key: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${stack.baseUrl}/api/v1${apiPath}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: await res.json().catch(() => undefined) };
}

/** A link of the main navigation (named "Principal" in Spanish). */
function nav(name: string, navigation = 'Main') {
  return page.getByRole('navigation', { name: navigation }).getByRole('link', { name, exact: true });
}

/** The invoice numbers linked from the list table on the current page. */
async function listedNumbers(): Promise<string[]> {
  return page.locator('[data-testid="invoice-table"] a[href^="/app/invoices/"]').allTextContents();
}

beforeAll(async () => {
  stack = await startE2eStack();
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  // This walk-through reads the English dashboard; the Spanish one (the default) has its own test below.
  context = await browser.newContext({ viewport: LAPTOP, baseURL: stack.baseUrl, locale: 'en-GB' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.baseUrl });
  page = await context.newPage();
  // Confirm dialogs (regenerate key) are answered "OK", as a user would.
  page.on('dialog', (dialog) => void dialog.accept());
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

test('an accountant signs up, sets up a taxpayer and a system, and follows invoices to acceptance', async () => {
  // Sign up: the same account as POST /auth/register, the API key shown once.
  await page.goto('/signup');
  await screenshot('sign-up');
  await page.getByLabel('Your name or company').fill('Gestoría Pérez');
  await page.getByLabel('Email').fill('ana.perez@example.test');
  await page.getByLabel('Password', { exact: true }).fill('a long and secret password');
  await page.getByLabel('Repeat the password').fill('a long and secret password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Welcome, Gestoría Pérez' }).waitFor();
  const firstKey = (await page.getByTestId('new-api-key').textContent())!.trim();
  expect(firstKey).toMatch(/^vfk_/);
  await page.getByRole('button', { name: 'Copy' }).click();
  await page.getByRole('button', { name: 'Copied' }).waitFor();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(firstKey);
  await screenshot('account-created');

  // A taxpayer with its own certificate, uploaded through the form.
  await nav('Taxpayers').click();
  await screenshot('taxpayers-empty');
  await page.getByRole('link', { name: 'Add a taxpayer' }).click();
  await page.getByLabel('NIF', { exact: true }).fill(TAXPAYER_NIF);
  await page.getByLabel('Legal name').fill('Ferretería López SL');
  await page.getByLabel('Certificate file (PKCS#12, .p12 or .pfx)').setInputFiles(stack.taxpayerP12(TAXPAYER_NIF, 'clave p12'));
  await page.getByLabel('Certificate password').fill('clave p12');
  await screenshot('taxpayer-new');
  await page.getByRole('button', { name: 'Add taxpayer' }).click();
  await page.getByText('Taxpayer created.').waitFor();
  await page.getByText(`CN=CONTRIBUYENTE ${TAXPAYER_NIF} - ${TAXPAYER_NIF}`).waitFor();
  expect(await page.locator('main').textContent()).toContain('Sandbox');
  const taxpayerId = new URL(page.url()).pathname.split('/').pop()!;
  await screenshot('taxpayer-detail');

  // A computer system.
  await nav('Systems').click();
  await screenshot('systems-empty');
  await page.getByRole('link', { name: 'Add a system' }).click();
  await page.getByLabel('Vendor name').fill('Software Vendor SL');
  await page.getByLabel('Vendor NIF').fill('B85905495');
  await page.getByLabel('System name').fill('Facturador');
  await page.getByLabel('Version').fill('2.4.1');
  await page.getByLabel('Installation number').fill('INST-0001');
  await page.getByRole('button', { name: 'Add system' }).click();
  await page.getByText('Computer system created.').waitFor();
  const systemId = new URL(page.url()).pathname.split('/').pop()!;
  await screenshot('system-detail');
  await nav('Taxpayers').click();
  await screenshot('taxpayers');

  // An F1 and an R1 correcting it, registered through the API with the key read from the page.
  const f1Body = invoiceBody(taxpayerId, systemId, { invoice_number: 'F-2026-0001' });
  const f1 = await api('POST', '/invoices', firstKey, f1Body);
  expect(f1.status).toBe(201);
  const r1 = await api(
    'POST',
    '/invoices',
    firstKey,
    invoiceBody(taxpayerId, systemId, {
      invoice_number: 'R-2026-0001',
      invoice_type: 'R1',
      corrected_invoices: [{ invoice_number: 'F-2026-0001', invoice_date: f1Body.invoice_date }],
      breakdown: [{ tax_type: '01', regime_type: '01', operation_type: 'S1', base_amount: -10, tax_rate: 21, tax_amount: -2.1 }],
      total_amount: -12.1,
      total_tax_amount: -2.1,
    }),
  );
  expect(r1.status).toBe(201);

  // The F1 is under Invoices only; the R1 only under Corrective invoices, with what it corrects.
  await nav('Invoices').click();
  expect(await listedNumbers()).toEqual(['F-2026-0001']);
  await screenshot('invoices');
  await nav('Corrective invoices').click();
  expect(await listedNumbers()).toEqual(['R-2026-0001']);
  expect(await page.locator('[data-testid="invoice-table"]').textContent()).toContain('F-2026-0001');
  await screenshot('corrective-invoices');

  // The detail shows the QR as printed ("QR tributario:" above, "VERI*FACTU" below) while the record waits.
  await nav('Invoices').click();
  await page.getByRole('link', { name: 'F-2026-0001' }).click();
  const figure = page.locator('figure.qr');
  expect((await figure.textContent())!.replace(/\s+/g, ' ').trim()).toBe('QR tributario: VERI*FACTU');
  expect(await page.getByTestId('invoice-qr').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  expect(await page.getByTestId('invoice-hash').textContent()).toBe(f1.json.data.hash);
  const badge = page.locator(`.page-header [data-invoice-id="${f1.json.data.id}"]`);
  expect(await badge.textContent()).toBe('Queued');
  await screenshot('invoice-detail-queued');

  // The worker sends it to the simulator; the badge turns "Accepted" in place, without a reload.
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  await stack.startWorker();
  await page.waitForSelector(`.page-header [data-invoice-id="${f1.json.data.id}"][data-status="accepted"]`, { timeout: 120_000 });
  expect(await badge.textContent()).toBe('Accepted');
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  await screenshot('invoice-detail-accepted');
  await page.reload();
  await page.getByText('Submission 1:').first().waitFor();
  await screenshot('invoice-detail-with-submission');

  // The chain of the taxpayer verifies.
  await page.goto(`/app/taxpayers/${taxpayerId}/chain`);
  await screenshot('chain');
  await page.getByRole('button', { name: 'Verify chain' }).click();
  await page.getByText('All 2 records verified.').waitFor();
  await screenshot('chain-verified');

  await nav('Overview').click();
  await page.getByRole('heading', { name: "This month's usage" }).waitFor();
  expect(await page.getByTestId('usage').textContent()).toContain('2');
  await screenshot('overview');

  // A new key: shown once, and the old one is refused by the API at once.
  await nav('API key').click();
  await screenshot('api-key');
  await page.getByRole('button', { name: 'Regenerate API key' }).click();
  await page.getByText('A new key was issued.').waitFor();
  const newKey = (await page.getByTestId('new-api-key').textContent())!.trim();
  expect(newKey).not.toBe(firstKey);
  expect((await api('GET', '/account', firstKey)).status).toBe(401);
  expect((await api('GET', '/account', newKey)).status).toBe(200);
  await screenshot('api-key-regenerated');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByText('You are signed out.').waitFor();
  await screenshot('signed-out');
  await page.goto('/app');
  expect(new URL(page.url()).pathname).toBe('/login');
  await screenshot('sign-in');
});

test('a Spanish business reads the dashboard in Spanish: the chart, the lists, the export and the key page reload', async () => {
  // No language chosen: the browser asks for Spanish, as most of the dashboard's users' browsers do.
  const spanish = await browser.newContext({ viewport: LAPTOP, baseURL: stack.baseUrl, locale: 'es-ES', acceptDownloads: true });
  page = await spanish.newPage();
  page.on('dialog', (dialog) => void dialog.accept());

  await page.goto('/signup');
  expect(await page.getAttribute('html', 'lang')).toBe('es');
  await page.getByLabel('Tu nombre o empresa').fill('Asesoría Martín');
  await page.getByLabel('Correo electrónico').fill('luis.martin@example.test');
  await page.getByLabel('Contraseña', { exact: true }).fill('una contraseña larga y secreta');
  await page.getByLabel('Repite la contraseña').fill('una contraseña larga y secreta');
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
  await page.getByRole('heading', { name: 'Te damos la bienvenida, Asesoría Martín' }).waitFor();
  const key = (await page.getByTestId('new-api-key').textContent())!.trim();
  await screenshot('es-welcome');
  // Reloading the page after sign-up creates nothing and shows the key no more.
  await page.reload();
  expect(new URL(page.url()).pathname).toBe('/app');
  expect(await page.getByTestId('new-api-key').count()).toBe(0);

  // A year of invoices, registered through the API and spread over the months (some refused, for the chart's colours;
  // the worker keeps sending meanwhile, so nothing below depends on a status).
  const taxpayer = await api('POST', '/taxpayers', key, { nif: '89890002E', name: 'Panadería Martín SL' });
  const system = await api('POST', '/systems', key, {
    vendor_name: 'Software Vendor SL',
    vendor_nif: 'B85905495',
    name: 'Caja',
    version: '1.0',
    installation_number: 'INST-9',
  });
  expect([taxpayer.status, system.status]).toEqual([201, 201]);
  const ids: string[] = [];
  for (let i = 1; i <= 30; i++) {
    const base = 100 * i + 20;
    const res = await api(
      'POST',
      '/invoices',
      key,
      invoiceBody(taxpayer.json.data.id, system.json.data.id, {
        invoice_number: `V-2026-${String(i).padStart(3, '0')}`,
        recipient: { name: i % 2 ? 'Hostelería Norte SL' : 'Cafetería Sur SA', nif: 'B85905495' },
        breakdown: [
          { tax_type: '01', regime_type: '01', operation_type: 'S1', base_amount: base, tax_rate: 21, tax_amount: (base * 21) / 100 },
        ],
        total_amount: (base * 121) / 100,
        total_tax_amount: (base * 21) / 100,
      }),
    );
    expect(res.status).toBe(201);
    ids.push(res.json.data.id);
  }
  const db = stack.db.db;
  for (let i = 0; i < ids.length; i++) {
    const createdAt = new Date();
    createdAt.setUTCDate(10);
    createdAt.setUTCMonth(createdAt.getUTCMonth() - (i % 11));
    await db.update(invoices).set({ createdAt }).where(eq(invoices.id, ids[i]));
  }
  await db
    .update(invoices)
    .set({ authorityStatus: 'rejected', authorityCode: 1104 })
    .where(inArray(invoices.id, ids.slice(0, 4)));

  // The overview: the monthly chart, drawn on the server, with its text alternative.
  await page.goto('/app');
  await page.getByRole('heading', { name: 'Resumen', exact: true }).waitFor();
  const chart = page.getByRole('img', { name: 'Registros por estado, últimos 12 meses' });
  await chart.waitFor();
  expect(await page.locator('svg.chart desc').textContent()).toContain('30 en total');
  expect(await page.locator('svg.chart g[data-month]').count()).toBe(12);
  expect(await page.locator('svg.chart rect').count()).toBeGreaterThan(11);
  await page.getByText('Ver las cifras en una tabla').click();
  expect(await page.getByTestId('chart-table').locator('tbody tr').count()).toBe(12);
  await screenshot('es-overview-chart');

  // The list: Spanish amounts and dates, recipient and tax, the total and page numbers, sorting.
  await nav('Facturas', 'Principal').click();
  expect(await page.getByTestId('invoice-total').textContent()).toContain('30 facturas');
  expect(await page.getByTestId('total').first().textContent()).toMatch(/^\d{1,3}(\.\d{3})*,\d{2}\u00a0€$/);
  expect(await page.getByTestId('recipient').first().textContent()).toMatch(/(Hostelería Norte SL|Cafetería Sur SA) B85905495/);
  await page.getByRole('navigation', { name: 'Páginas' }).getByRole('link', { name: 'Página 2' }).click();
  expect(await listedNumbers()).toHaveLength(5);
  await page.getByRole('link', { name: 'Total', exact: true }).click();
  expect((await listedNumbers())[0]).toBe('V-2026-030');
  expect(await page.getByTestId('total').first().textContent()).toBe('3.654,20\u00a0€');
  await screenshot('es-invoices');

  // The export carries the filters (numbers V-2026-001 to 009 only), as a CSV Spanish Excel opens.
  await page.getByLabel('El número contiene').fill('V-2026-00');
  await page.getByRole('button', { name: 'Aplicar filtros' }).click();
  expect(await page.getByTestId('invoice-total').textContent()).toContain('9 facturas');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  expect(download.suggestedFilename()).toMatch(/^facturas-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await download.path())!);
  expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = csv.subarray(3).toString('utf8').trim().split('\r\n');
  expect(lines[0]).toBe('Número;Fecha;Tipo;NIF emisor;Destinatario;NIF destinatario;Cuota;Total;Estado;Código AEAT');
  // In the list's order (highest total first), with decimal commas.
  expect(lines.slice(1).map((l) => l.split(';')[0])).toEqual([
    'V-2026-009',
    'V-2026-008',
    'V-2026-007',
    'V-2026-006',
    'V-2026-005',
    'V-2026-004',
    'V-2026-003',
    'V-2026-002',
    'V-2026-001',
  ]);
  expect(lines[1].split(';').slice(6, 8)).toEqual(['193,20', '1113,20']);

  // On a phone the filters fold away until asked for, and the menu stays on one row.
  await page.setViewportSize(PHONE);
  await page.goto('/app/invoices');
  expect(await page.getByTestId('filters').evaluate((d: HTMLDetailsElement) => d.open)).toBe(false);
  const menu = page.locator('.site-nav ul');
  const tops = await menu.locator('li').evaluateAll((items) => new Set(items.map((li) => Math.round(li.getBoundingClientRect().top))).size);
  expect(tops).toBe(1);
  await page.getByText('Filtros', { exact: true }).click();
  expect(await page.getByTestId('filters').evaluate((d: HTMLDetailsElement) => d.open)).toBe(true);
  await page.setViewportSize(LAPTOP);

  // The key page: a new key shown once; reloading issues no second key.
  await nav('Clave API', 'Principal').click();
  await page.getByRole('button', { name: 'Regenerar la clave API' }).click();
  await page.getByText('Se ha emitido una clave nueva.').waitFor();
  expect(new URL(page.url()).pathname).toBe('/app/api-key');
  const newKey = (await page.getByTestId('new-api-key').textContent())!.trim();
  expect(page.url()).not.toContain(newKey);
  await screenshot('es-api-key-regenerated');
  await page.reload();
  await page.getByRole('heading', { name: 'Clave actual' }).waitFor();
  expect(await page.getByTestId('new-api-key').count()).toBe(0);
  expect((await api('GET', '/account', newKey)).status).toBe(200);
  expect((await api('GET', '/account', key)).status).toBe(401);
  await screenshot('es-api-key-reloaded');

  // Switching to English from the page, remembered on the next pages.
  await page.getByTestId('language-switch').getByRole('link', { name: 'English' }).click();
  expect(await page.getAttribute('html', 'lang')).toBe('en');
  await page.getByRole('heading', { name: 'Current key' }).waitFor();
  await nav('Invoices').click();
  expect(await page.getAttribute('html', 'lang')).toBe('en');
  await screenshot('en-invoices');
  await page.getByTestId('language-switch').getByRole('link', { name: 'Español' }).click();
  expect(await page.getAttribute('html', 'lang')).toBe('es');
  await spanish.close();
});
