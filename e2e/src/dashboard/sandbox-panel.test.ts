import { chromium, type Browser } from 'playwright-core';
import { chromiumPath } from '@vf/api/testing';
import { startE2eStack, type E2eStack } from '../support/dashboard-stack';

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

test('a Spanish business rehearses a rejection from its sandbox taxpayer’s page and follows it to the end', async () => {
  const context = await browser.newContext({ baseURL: stack.baseUrl, locale: 'es-ES' });
  const page = await context.newPage();
  await page.goto('/signup');
  await page.getByLabel('Tu nombre o empresa').fill('Asesoría Prueba');
  await page.getByLabel('Correo electrónico').fill('prueba@example.test');
  await page.getByLabel('Contraseña', { exact: true }).fill('una contraseña larga y secreta');
  await page.getByLabel('Repite la contraseña').fill('una contraseña larga y secreta');
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
  const key = (await page.getByTestId('new-api-key').textContent())!.trim();
  const taxpayer = await api('POST', '/taxpayers', key, { nif: '89890003T', name: 'Librería Prueba SL' });
  await api('POST', '/systems', key, {
    vendor_name: 'Software Vendor SL',
    vendor_nif: 'B85905495',
    name: 'Caja',
    version: '1.0',
    installation_number: 'INST-1',
  });

  await page.goto(`/app/taxpayers/${taxpayer.data.id}`);
  await page.getByRole('heading', { name: 'Factura de prueba con escenario' }).waitFor();
  await page.getByLabel('Escenario', { exact: true }).selectOption('rejected');
  await page.getByLabel('Código o segundos').fill('1100');
  await page.getByRole('button', { name: 'Enviar factura de prueba' }).click();
  await page.getByTestId('sandbox-scenario').waitFor();
  expect(await page.getByTestId('sandbox-scenario').textContent()).toBe('rejected:1100');
  // The worker sends it to the simulator, which rejects it with 1100; the badge turns in place.
  await page.waitForSelector('.page-header [data-status="rejected"]', { timeout: 60_000 });
  expect(await page.locator('.page-header [data-status="rejected"]').textContent()).toBe('Rechazada');
  await context.close();
});
