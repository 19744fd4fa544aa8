import { randomInt, randomUUID } from 'node:crypto';
import request from 'supertest';
import { madridToday } from '@vf/core';
import { f1Request } from '@vf/core/testing';

/** An Express app or a listening server: whatever supertest can call. */
type App = Parameters<typeof request>[0];

export interface TestAccount {
  apiKey: string;
  email: string;
  password: string;
  auth: { Authorization: string };
}

export async function registerAccount(app: App, name = 'Test account'): Promise<TestAccount> {
  const email = `${randomUUID()}@example.test`;
  const password = `pw-${randomUUID()}`;
  const res = await request(app).post('/api/v1/auth/register').send({ name, email, password }).expect(201);
  const apiKey: string = res.body.data.api_key;
  return { apiKey, email, password, auth: { Authorization: `Bearer ${apiKey}` } };
}

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

/**
 * A well-formed DNI-type NIF no other test taxpayer has: a NIF belongs to one account per environment
 * service-wide, so every fixture taxpayer needs its own.
 */
export function uniqueNif(): string {
  const digits = String(10_000_000 + randomInt(80_000_000));
  return `${digits}${DNI_LETTERS[Number(digits) % 23]}`;
}

export async function createTaxpayer(app: App, account: TestAccount, body: Record<string, unknown> = {}): Promise<string> {
  const res = await request(app)
    .post('/api/v1/taxpayers')
    .set(account.auth)
    .send({ nif: uniqueNif(), name: 'Contribuyente de Pruebas', ...body })
    .expect(201);
  return res.body.data.id;
}

export async function createSystem(app: App, account: TestAccount, body: Record<string, unknown> = {}): Promise<string> {
  const res = await request(app)
    .post('/api/v1/systems')
    .set(account.auth)
    .send({
      vendor_name: 'Software Vendor SL',
      vendor_nif: 'B85905495',
      name: 'Facturador',
      version: '1.0.0',
      installation_number: 'INST-1',
      ...body,
    })
    .expect(201);
  return res.body.data.id;
}

/** The shared F1 fixture (100.00 at 21% VAT) for the given taxpayer and system, dated today, with a fresh number. */
export function invoiceBody(taxpayerId: string, systemId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return f1Request({
    taxpayer_id: taxpayerId,
    computer_system_id: systemId,
    invoice_number: `F-${randomUUID().slice(0, 8)}`,
    invoice_date: madridToday(),
    ...overrides,
  });
}

/** One account with a taxpayer and a system, ready to register invoices. */
export async function readyAccount(app: App, taxpayer: Record<string, unknown> = {}) {
  const account = await registerAccount(app);
  const taxpayerId = await createTaxpayer(app, account, taxpayer);
  const systemId = await createSystem(app, account);
  return { account, taxpayerId, systemId };
}
