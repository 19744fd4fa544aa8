import { parseSandboxScenario, ScenarioRefusal, type SandboxScenario } from '@vf/core';
import type { InjectedFault, SoapOperation } from '../faults/fault-types';

/** What the service's worker sends with every request of a scenario chain (never in the XML): the record's scenario. */
export const SCENARIO_HEADER = 'sandbox-scenario';

/** TiempoEsperaEnvio of every answer of the scenario service: scenarios finish within seconds. */
export const SCENARIO_WAIT_SECONDS = 1;

/** Records, consultas and taxpayers remembered at most: the oldest are forgotten past this. */
const REMEMBERED = 100_000;

/** How one request of the scenario service is answered. */
export interface ScenarioPlan {
  /** Faults for this request alone, taken as operator faults are (faults/fault-book.ts). */
  faults: InjectedFault[];
  /** The answer comes this late (answered_after). */
  delayMs: number;
  /** The record is processed once before (duplicate_without_detail: it is held when the request meets it). */
  storeFirst: boolean;
}

/** What a request is known by: its operation, taxpayer, record (by its huella) and invoice. */
export interface ScenarioRequest {
  operation?: SoapOperation;
  nif?: string;
  huella?: string;
  invoiceNumber?: string;
}

const NONE: ScenarioPlan = { faults: [], delayMs: 0, storeFirst: false };
const HUELLA = /<(?:[\w.-]+:)?Huella>\s*([0-9A-Fa-f]{64})\s*</g;

/** The record's own huella: the last in the message (the first may be its previous record's, in Encadenamiento). */
export function recordHuella(xml: string): string | undefined {
  return [...xml.matchAll(HUELLA)].at(-1)?.[1];
}

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > REMEMBERED) map.delete(map.keys().next().value as string);
}

/**
 * The scenario service's memory (docs/decisions/0041-scenarios-told-by-a-header.md): each request names its record's
 * scenario in a header, and the book turns it into the faults of that request, counting each record's sends (a
 * scenario acts on the first) and each invoice's consultas, and holding a taxpayer's outage for its seconds.
 */
export class ScenarioBook {
  private readonly sends = new Map<string, number>();
  private readonly consultas = new Map<string, number>();
  private readonly downUntil = new Map<string, number>();

  clear(): void {
    this.sends.clear();
    this.consultas.clear();
    this.downUntil.clear();
  }

  plan(header: string | undefined, request: ScenarioRequest, now: number): ScenarioPlan {
    const parsed = header === undefined ? undefined : parseSandboxScenario(header);
    const scenario: SandboxScenario = parsed === undefined || parsed instanceof ScenarioRefusal ? { name: 'accepted' } : parsed;
    const nif = request.nif ?? '';
    let first = false;
    if (request.operation === 'RegFactu') {
      const key = `${nif}|${request.huella ?? request.invoiceNumber ?? ''}`;
      const sends = (this.sends.get(key) ?? 0) + 1;
      remember(this.sends, key, sends);
      first = sends === 1;
      if (first && scenario.name === 'authority_down') remember(this.downUntil, nif, now + scenario.seconds! * 1000);
    }
    if ((this.downUntil.get(nif) ?? 0) > now) return { ...NONE, faults: [{ kind: 'http503' }] };
    if (request.operation === 'Consulta') return this.consulta(scenario, `${nif}|${request.invoiceNumber ?? ''}`);
    if (!first) return NONE;
    return firstSend(scenario);
  }

  /** reply_lost: the first Consulta about the invoice fails too (Codigo[102]), so the record goes again and meets 3000. */
  private consulta(scenario: SandboxScenario, key: string): ScenarioPlan {
    const asked = (this.consultas.get(key) ?? 0) + 1;
    remember(this.consultas, key, asked);
    return scenario.name === 'reply_lost' && asked === 1 ? { ...NONE, faults: [{ kind: 'soapFault', code: 102 }] } : NONE;
  }
}

/** What a record's first send meets under its scenario. */
function firstSend(scenario: SandboxScenario): ScenarioPlan {
  switch (scenario.name) {
    case 'accepted_with_errors':
    case 'rejected':
      return { ...NONE, faults: [{ kind: 'recordCode', code: scenario.code! }] };
    case 'message_refused':
      return { ...NONE, faults: [{ kind: 'soapFault', code: scenario.code! }] };
    case 'reply_lost':
      return { ...NONE, faults: [{ kind: 'replyLost' }] };
    case 'stored_then_failed':
      return { ...NONE, faults: [{ kind: 'storedThenFailed' }] };
    case 'answered_after':
      return { ...NONE, delayMs: scenario.seconds! * 1000 };
    case 'duplicate_without_detail':
      return { ...NONE, faults: [{ kind: 'duplicateWithoutDetail' }], storeFirst: true };
    default:
      return NONE;
  }
}
