import { randomUUID } from 'node:crypto';
import type { Tenant } from '../load/load-spec';

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

/** A well-formed DNI-type NIF (right check letter) for taxpayer n of the run. */
export function benchNif(n: number): string {
  const digits = String(71_000_000 + n).padStart(8, '0');
  return `${digits}${DNI_LETTERS[Number(digits) % 23]}`;
}

/**
 * A new account's email: the workload's label for whoever reads the database, and a random part, within the 64
 * characters an address's local part may have (`worker-running-bulk-nvf` and a whole UUID would not be).
 */
export function benchEmail(label: string): string {
  return `bench-${label}-${randomUUID().slice(0, 12)}`.slice(0, 64) + '@example.test';
}

/** The members of the API's answers the bench reads. */
interface Answer {
  data: { id: string; api_key: string };
}

async function post(url: string, body: unknown, apiKey?: string): Promise<Answer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(apiKey && { authorization: `Bearer ${apiKey}` }) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 201 && res.status !== 200) throw new Error(`POST ${url} answered ${res.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as Answer;
}

/**
 * An account of its own for one workload, through the API as a customer would make it: one computer system and
 * `taxpayers` taxpayers in social-collaborator mode (the platform certificate signs their records), NO VERI*FACTU with
 * `noVerifactu` (their records signed as they are registered).
 * `firstNif` keeps NIFs distinct across workloads, since the simulator remembers what each NIF sent.
 */
export async function createTenant(
  apiUrl: string,
  label: string,
  taxpayers: number,
  firstNif: number,
  noVerifactu = false,
): Promise<Tenant> {
  const api = `${apiUrl}/api/v1`;
  const account = await post(`${api}/auth/register`, {
    name: `Bench ${label}`,
    email: benchEmail(label),
    password: `bench-${randomUUID()}`,
  });
  const apiKey: string = account.data.api_key;
  const system = await post(
    `${api}/systems`,
    {
      vendor_name: 'Bench Software SL',
      vendor_nif: 'B85905495',
      name: 'Bench',
      version: '1.0',
      installation_number: '1',
      only_supports_verifactu: !noVerifactu,
    },
    apiKey,
  );
  const taxpayerIds: string[] = new Array(taxpayers);
  const queue = Array.from({ length: taxpayers }, (_, i) => i);
  await Promise.all(
    Array.from({ length: Math.min(8, taxpayers) }, async () => {
      for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
        const nif = benchNif(firstNif + i);
        const mode = noVerifactu ? { operating_mode: 'no_verifactu' } : {};
        const created = await post(`${api}/taxpayers`, { nif, name: `CONTRIBUYENTE ${nif}`, is_production: false, ...mode }, apiKey);
        taxpayerIds[i] = created.data.id;
      }
    }),
  );
  return { apiKey, systemId: system.data.id, taxpayerIds };
}
