import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumPath, invoiceBody } from '@vf/api/testing';
import { startE2eStack, type E2eStack } from '../support/dashboard-stack';
import { testNif } from '../support/test-nifs';

// The dashboard's tax ID checks in Chromium against the simulator's census and VIES stand-in: the invoice forms say
// what the census (or VIES) said of the recipient as it is typed, a new invoice keeps it on its page, and a CSV list
// is checked by the worker, followed, and downloaded.

jest.setTimeout(120_000);

let stack: E2eStack;
let browser: Browser;
beforeAll(async () => {
  stack = await startE2eStack();
  await stack.startWorker();
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run'],
  });
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

async function api(method: string, apiPath: string, key: string, body?: unknown) {
  const res = await fetch(`${stack.baseUrl}/api/v1${apiPath}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await res.json()) as { data: { id: string } };
}

async function signUp(page: Page, email = 'censo@example.test'): Promise<string> {
  await page.goto('/signup');
  await page.getByLabel('Tu nombre o empresa').fill('Asesoría Censo');
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill('una contraseña larga y secreta');
  await page.getByLabel('Repite la contraseña').fill('una contraseña larga y secreta');
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
  return (await page.getByTestId('new-api-key').textContent())!.trim();
}

test('a Spanish business checks a recipient as it types it, then a list of tax IDs from a CSV', async () => {
  const similar = testNif(701);
  const gone = testNif(702);
  stack.sim.seedCensus([
    { nif: similar, status: 'identified', name: 'Distribuciones Norte SL' },
    { nif: gone, status: 'deregistered' },
  ]);
  const context = await browser.newContext({ baseURL: stack.baseUrl, locale: 'es-ES', acceptDownloads: true });
  const page = await context.newPage();
  const key = await signUp(page);
  const taxpayer = await api('POST', '/taxpayers', key, { nif: '89890003T', name: 'Librería Prueba SL' });
  const system = await api('POST', '/systems', key, {
    vendor_name: 'Software Vendor SL',
    vendor_nif: 'B85905495',
    name: 'Caja',
    version: '1.0',
    installation_number: 'INST-1',
  });
  const invoice = await api(
    'POST',
    '/invoices',
    key,
    invoiceBody(taxpayer.data.id, system.data.id, { recipient: { name: 'Cliente Uno SL', nif: testNif(700) } }),
  );

  // The correction form: the answer follows what is typed, and the form stays usable meanwhile.
  await page.goto(`/app/invoices/${invoice.data.id}/correct`);
  const said = page.getByTestId('recipient-check');
  await page.locator('#field-recipient-nif').fill(similar);
  await page.locator('#field-recipient-name').fill('Distribuciones del Norte SL');
  // The NIF alone, with the form's name, is already answered "invalid": wait for the answer to this name.
  await page.waitForSelector('[data-testid="recipient-check"][data-result="invalid"]:has-text("Nombre similar")');
  expect(await said.textContent()).toBe('Nombre similar: en el censo figura «Distribuciones Norte SL».');
  await page.locator('#field-recipient-name').fill('Distribuciones Norte SL');
  await page.waitForSelector('[data-testid="recipient-check"][data-result="valid"]');
  expect(await said.textContent()).toBe('Identificado en el censo de la AEAT.');

  // The list: uploaded, followed to the end by the worker's progress, and its results downloaded.
  await page.getByRole('link', { name: 'Comprobar NIF' }).click();
  const csv = ['tax_id;name', `${testNif(703)};Cliente Tres SL`, `${gone};Cliente de Baja SL`, `${similar};Otra Empresa Distinta SA`].join(
    '\n',
  );
  await page.getByLabel('Fichero CSV').setInputFiles({ name: 'clientes.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Comprobar la lista' }).click();
  await page.getByText('Lista comprobada.').waitFor({ timeout: 60_000 });
  expect(await page.getByTestId('list-progress').textContent()).toBe('Comprobados 3 de 3');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Descargar los resultados (CSV)' }).click(),
  ]);
  const rows = (await streamText(await download.createReadStream())).split('\r\n').filter(Boolean);
  expect(rows.slice(1).map((r) => r.split(';').slice(0, 5))).toEqual([
    ['1', testNif(703), 'valid', 'identified', ''],
    ['2', gone, 'invalid', 'deregistered', ''],
    ['3', similar, 'invalid', 'not_identified', ''],
  ]);
  await context.close();
});

test('a Spanish business types a new invoice: the recipient is checked as typed, and the invoice keeps what was said', async () => {
  const similar = testNif(711);
  stack.sim.seedCensus([{ nif: similar, status: 'identified', name: 'Ferretería Central SL' }]);
  const context = await browser.newContext({ baseURL: stack.baseUrl, locale: 'es-ES' });
  const page = await context.newPage();
  const key = await signUp(page, 'factura@example.test');
  await api('POST', '/taxpayers', key, { nif: '89890004R', name: 'Papelería Prueba SL' });
  await api('POST', '/systems', key, {
    vendor_name: 'Software Vendor SL',
    vendor_nif: 'B85905495',
    name: 'Caja',
    version: '1.0',
    installation_number: 'INST-2',
  });
  // The account's default check, chosen on the tax ID page: warn.
  await page.goto('/app/tax-ids');
  await page.getByLabel('Destinatarios (NIF español en el censo, NIF-IVA de la UE en VIES)').selectOption('warn');
  await page.getByRole('button', { name: 'Guardar' }).click();

  await page.goto('/app/invoices');
  expect(await phoneWidth(page)).toBe(390);
  await page.getByTestId('new-invoice').click();
  expect(await phoneWidth(page)).toBe(390);
  const said = page.getByTestId('recipient-check');
  await page.getByLabel('Número y serie').fill('A-2026-0100');
  await page.getByLabel('Descripción').fill('Material de oficina');
  await page.locator('#field-recipient-nif').fill(similar);
  await page.locator('#field-recipient-name').fill('Ferreteria Centro SL');
  await page.waitForSelector('[data-testid="recipient-check"][data-result="invalid"]:has-text("Nombre similar")');
  expect(await said.textContent()).toBe('Nombre similar: en el censo figura «Ferretería Central SL».');
  // An EU customer instead: VIES is asked about its VAT number (RO200 is VIES's invalid test number).
  await page.locator('#field-recipient-nif').fill('');
  await page.locator('#field-recipient-id').fill('RO200');
  await page.waitForSelector('[data-testid="recipient-check"][data-result="invalid"]:text("VIES")');
  expect(await said.textContent()).toBe('VIES no conoce este NIF-IVA.');
  await page.locator('#field-recipient-id').fill('');
  await page.locator('#field-recipient-nif').fill(similar);
  await page.locator('#field-recipient-name').fill('Ferretería Central SL');
  await page.waitForSelector('[data-testid="recipient-check"][data-result="valid"]');
  expect(await said.textContent()).toBe('Identificado en el censo de la AEAT.');

  await page.locator('#field-breakdown-0-base_amount').fill('200,00');
  await page.getByRole('button', { name: 'Registrar la factura' }).click();
  await page.getByText('Factura registrada y en cola para la AEAT.').waitFor();
  const kept = page.getByTestId('kept-recipient-check');
  expect(await kept.locator('tbody tr td').allTextContents()).toEqual([
    similar,
    'Válido',
    'Identificado en el censo de la AEAT.',
    'Censo de la AEAT (respuesta guardada)',
    expect.stringMatching(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/),
  ]);
  expect(await page.getByText('242,00 €').count()).toBeGreaterThan(0);
  expect(await phoneWidth(page)).toBe(390);

  // With refuse, an EU customer VIES does not know is refused before anything is registered, said in Spanish.
  await page.goto('/app/tax-ids');
  await page.getByLabel('Destinatarios (NIF español en el censo, NIF-IVA de la UE en VIES)').selectOption('refuse');
  await page.getByRole('button', { name: 'Guardar' }).click();
  await page.goto('/app/invoices/new');
  await page.getByLabel('Número y serie').fill('A-2026-0101');
  await page.getByLabel('Descripción').fill('Material de oficina');
  await page.locator('#field-recipient-name').fill('Client Test SRL');
  await page.locator('#field-recipient-id').fill('RO200');
  await page.locator('#field-breakdown-0-base_amount').fill('100');
  await page.getByRole('button', { name: 'Registrar la factura' }).click();
  await page.getByTestId('new-invoice-refusal').waitFor();
  expect(await page.getByTestId('new-invoice-refusal').textContent()).toContain('VIES no conoce el NIF-IVA del destinatario');
  const listed = await fetch(`${stack.baseUrl}/api/v1/invoices`, { headers: { Authorization: `Bearer ${key}` } });
  expect(((await listed.json()) as { total: number }).total).toBe(1);
  await context.close();
});

/** The page's width on a phone: nothing may need sideways scrolling (as dashboard.e2e.test.ts holds its pages to). */
async function phoneWidth(page: Page): Promise<number> {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  if (size) await page.setViewportSize(size);
  return width;
}

async function streamText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
