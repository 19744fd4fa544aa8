import { f1Request } from '@vf/core/testing';
import { madridDate } from '../load/invoice-body';
import type { Stack } from '../stack/stack';

/** A GET with the account's key, timed from the request to the last byte of the answer. */
export async function get(url: string, apiKey: string): Promise<{ status: number; body: string; ms: number }> {
  const started = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${apiKey}` } });
  const body = await res.text();
  return { status: res.status, body, ms: performance.now() - started };
}

/** The template record a chain is filled from, registered through the API, and its chain. */
export async function registerTemplate(
  stack: Stack,
  apiKey: string,
  taxpayerId: string,
  systemId: string,
): Promise<{ id: string; chainId: string }> {
  const res = await fetch(`${stack.apiUrl}/api/v1/invoices`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify(
      f1Request({ taxpayer_id: taxpayerId, computer_system_id: systemId, invoice_number: 'S-00000001', invoice_date: madridDate() }),
    ),
  });
  const body = (await res.json()) as { data: { id: string } };
  if (res.status !== 201) throw new Error(`registering the template answered ${res.status}`);
  const { rows } = await stack.pool.query<{ chain_id: string }>('SELECT chain_id FROM invoices WHERE id = $1', [body.data.id]);
  return { id: body.data.id, chainId: rows[0].chain_id };
}

/** The record's XML as the API serves it, without its declaration: the bytes a worker signs. */
export async function recordXml(stack: Stack, apiKey: string, invoiceId: string): Promise<string> {
  const answer = await get(`${stack.apiUrl}/api/v1/invoices/${invoiceId}/records/${invoiceId}/xml`, apiKey);
  if (answer.status !== 200) throw new Error(`the record's XML answered ${answer.status}: ${answer.body.slice(0, 300)}`);
  return answer.body.replace(/^<\?xml[^>]*\?>\n/, '');
}
