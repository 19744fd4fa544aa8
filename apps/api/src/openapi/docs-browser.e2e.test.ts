import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { chromiumPath } from '../testing/chromium-path';
import { screenshotsDir } from '../testing/screenshots-dir';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
let server: Server;
let browser: Browser;
beforeAll(async () => {
  t = await createTestApp();
  server = t.app.listen(0, '127.0.0.1');
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
});
afterAll(async () => {
  await browser?.close();
  server?.close();
  await t.close();
});

test('/docs renders every operation of the document in Chromium, with nothing blocked by its CSP', async () => {
  const page = await browser.newPage();
  const complaints: string[] = [];
  const foreign: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) complaints.push(m.text());
  });
  page.on('pageerror', (e) => complaints.push(e.message));
  page.on('response', (r) => {
    if (r.status() >= 400) complaints.push(`${r.status()} ${r.url()}`);
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  page.on('request', (r) => {
    if (!r.url().startsWith(base) && !r.url().startsWith('data:')) foreign.push(r.url());
  });
  await page.goto(`${base}/docs`);
  await page.waitForSelector('.opblock');
  const document = await (await fetch(`${base}/api/v1/openapi.json`)).json();
  const operations = Object.values(document.paths as Record<string, object>).reduce((n: number, ops) => n + Object.keys(ops).length, 0);
  await page.waitForFunction((n) => document.querySelectorAll('.opblock').length === n, operations);
  const screenshots = screenshotsDir();
  if (screenshots) await page.screenshot({ path: path.join(screenshots, 'api-docs-laptop.png'), fullPage: true });
  expect(complaints).toEqual([]);
  expect(foreign).toEqual([]);
});
