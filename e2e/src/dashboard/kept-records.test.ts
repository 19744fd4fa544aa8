import { readFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { madridToday } from '@vf/core';
import { chromiumPath, invoiceBody } from '@vf/api/testing';
import { startE2eStack, type E2eStack } from '../support/dashboard-stack';
import { testNif } from '../support/test-nifs';

// A NO VERI*FACTU taxpayer's conservation page in Chromium: an on-demand check and its result, an export downloaded
// as a ZIP and listed, and a remission on the authority's request followed to its end through the simulator.

jest.setTimeout(180_000);

const P12_PASSWORD = 'clave-del-certificado';
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
  if (res.status >= 300) throw new Error(`${method} ${apiPath}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { data: { id: string; authority_status?: string } };
}

async function signUp(page: Page): Promise<string> {
  await page.goto('/signup');
  await page.getByLabel('Tu nombre o empresa').fill('Asesoría Conserva');
  await page.getByLabel('Correo electrónico').fill('conserva@example.test');
  await page.getByLabel('Contraseña', { exact: true }).fill('una contraseña larga y secreta');
  await page.getByLabel('Repite la contraseña').fill('una contraseña larga y secreta');
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
  return (await page.getByTestId('new-api-key').textContent())!.trim();
}

test('a Spanish business checks its kept records, exports them as a ZIP and sends them on a requerimiento', async () => {
  const nif = testNif(811);
  const context = await browser.newContext({ baseURL: stack.baseUrl, locale: 'es-ES', acceptDownloads: true });
  const page = await context.newPage();
  const key = await signUp(page);
  const p12 = readFileSync(stack.taxpayerP12(nif, P12_PASSWORD)).toString('base64');
  const taxpayer = await api('POST', '/taxpayers', key, {
    nif,
    name: 'Papelería Conserva SL',
    operating_mode: 'no_verifactu',
    certificate_p12_base64: p12,
    certificate_password: P12_PASSWORD,
  });
  const system = await api('POST', '/systems', key, {
    vendor_name: 'Software Vendor SL',
    vendor_nif: 'B85905495',
    name: 'Caja',
    version: '1.0',
    installation_number: 'INST-K1',
    only_supports_verifactu: false,
  });
  for (let i = 0; i < 3; i++) {
    const invoice = await api('POST', '/invoices', key, invoiceBody(taxpayer.data.id, system.data.id));
    expect(invoice.data.authority_status).toBe('kept');
  }
  const today = madridToday();

  await page.goto(`/app/taxpayers/${taxpayer.data.id}`);
  await page.getByRole('link', { name: 'Comprobaciones, exportaciones y requerimientos' }).click();
  await page.getByRole('heading', { name: 'Conservación y requerimientos', level: 1 }).waitFor();

  // A check of the whole chain of records: its result, link by link.
  await page.getByTestId('check-form').getByRole('button', { name: 'Comprobar' }).click();
  const result = page.getByTestId('check-result');
  await result.waitFor();
  expect(await result.getAttribute('data-sound')).toBe('true');
  expect(await result.getByRole('status').textContent()).toContain('Sin anomalías: 3 eslabones comprobados (nº 1 a 3).');
  expect(await page.getByTestId('check-link').count()).toBe(3);

  // An export of today's records: the ZIP downloads, and the export is listed with its signed event.
  const exportForm = page.getByTestId('export-form');
  await exportForm.getByLabel('Desde el día').fill(today);
  await exportForm.getByLabel('Hasta el día (incluido)').fill(today);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    exportForm.getByRole('button', { name: 'Exportar y descargar' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`exportacion-registros-${nif}-${today}-${nextDay(today)}.zip`);
  const zip = await streamBytes(await download.createReadStream());
  expect(zip.subarray(0, 2).toString()).toBe('PK');
  // Each file name is in its local header and in the central directory.
  expect(zip.toString('latin1').match(/registros\/\d{7}-alta-/g)).toHaveLength(6);
  expect(zip.toString('latin1')).toContain('indice.csv');
  await page.goto(`/app/taxpayers/${taxpayer.data.id}/kept`);
  const exports = page.getByTestId('export-row');
  expect(await exports.count()).toBe(1);
  expect(await exports.first().textContent()).toContain('08 · Registros de facturación');

  // A period with nothing in it is refused on its form, in Spanish.
  await exportForm.getByLabel('Desde el día').fill('2020-01-01');
  await exportForm.getByLabel('Hasta el día (incluido)').fill('2020-01-02');
  await exportForm.getByRole('button', { name: 'Exportar y descargar' }).click();
  await page.getByText('No se generó nada en ese periodo: no hay nada que exportar.').first().waitFor();

  // The requerimiento: started with its reference, followed to its end.
  stack.sim.issueRequirement(nif, 'REQ2026CONSERVA');
  const remissionForm = page.getByTestId('remission-form');
  await remissionForm.getByLabel('Referencia del requerimiento').fill('REQ2026CONSERVA');
  await remissionForm.getByLabel('Facturas desde el día').fill(today);
  await remissionForm.getByLabel('Facturas hasta el día (incluido)').fill(today);
  await remissionForm.getByRole('button', { name: 'Enviar a la AEAT' }).click();
  await page.getByText('Remisión iniciada').waitFor();
  const row = page.getByTestId('remission-row');
  expect(await row.count()).toBe(1);
  for (let tries = 0; (await row.getAttribute('data-status')) !== 'completed'; tries++) {
    if (tries > 60) throw new Error(`the remission did not complete: ${await row.textContent()}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await page.getByRole('link', { name: 'Actualizar' }).click();
  }
  expect(await row.textContent()).toContain('Completada');
  expect(await page.getByTestId('remission-progress').textContent()).toBe('1 de 1');
  expect(stack.sim.state.requirementRegistries.sandbox.all().filter((s) => s.record.id.issuerNif === nif)).toHaveLength(3);

  // The same page in English.
  await page.goto(`/app/taxpayers/${taxpayer.data.id}/kept?lang=en`);
  await page.getByRole('heading', { name: 'Conservation and requests', level: 1 }).waitFor();
  expect(await page.getByTestId('remission-row').textContent()).toContain('Completed');
  await context.close();
});

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

async function streamBytes(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}
