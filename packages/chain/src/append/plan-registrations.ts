import { checkAgainstIssuer, formatGeneratedAt, madridToday, type NormalizedInvoice, type ValidationIssue } from '@vf/core';
import { duplicateKey, type AppendContext, type AppendWrite, type ChainHead, type SealedAnswer } from '@vf/db';
import { altaRecordRow, type ChainPlace } from '../records/chain-record-row';
import type { ChainRefusal } from './chain-refusal';

/** What the client is told about a registered invoice (docs/api.md, `POST /invoices`, and the chain position). */
export interface RegisteredInvoice {
  id: string;
  taxpayerId: string;
  chainId: string;
  invoiceNumber: string;
  hash: string;
  previousHash: string | null;
  chainPosition: number;
  generatedAt: string;
  qrUrl: string;
  warnings: ValidationIssue[];
  /** The mode the record was generated in; in NO VERI*FACTU, `signedXml` is the record as signed and kept. */
  operatingMode: OperatingMode;
  signedXml?: string;
}

/** One invoice to register, already valid on its own (the authority's rules and the documented shape). */
export interface RegistrationItem {
  invoice: NormalizedInvoice;
  warnings: ValidationIssue[];
  /** A sandbox scenario (`rejected:1100`): the record goes on the taxpayer's scenario chain, under it. */
  sandboxScenario?: string;
  /** With an Idempotency-Key: the answer to store with the record, in the same statement. */
  answer?: (registered: RegisteredInvoice) => SealedAnswer;
}

export type ItemOutcome = { ok: true; registered: RegisteredInvoice } | { ok: false; error: ChainRefusal };

/** The refusal of an invoice the chain already has. */
export const duplicateInvoice = (invoice: Pick<NormalizedInvoice, 'invoiceNumber' | 'invoiceDate'>): ChainRefusal => ({
  code: 'duplicate_invoice',
  invoiceNumber: invoice.invoiceNumber,
  invoiceDate: invoice.invoiceDate,
});

/**
 * A system that declares it supports one taxpayer (TipoUsoPosibleMultiOT=N) keeps records for the first taxpayer that
 * used it and no other: its records would otherwise say N and mean several.
 */
export const usableBy = (system: { supportsMultipleTaxpayers: boolean; soleTaxpayerId: string | null }, taxpayerId: string) =>
  system.supportsMultipleTaxpayers || system.soleTaxpayerId === null || system.soleTaxpayerId === taxpayerId;

/**
 * The checks that need the taxpayer's data, per item and in order: a missing system, the issuer as recipient or third
 * party, an invoice the chain already has or an earlier item of the same group repeats. An item that fails fails alone.
 */
export function screenRegistrations(ctx: AppendContext, items: RegistrationItem[], mode: OperatingMode): (ChainRefusal | undefined)[] {
  const seen = new Set<string>();
  return items.map(({ invoice }): ChainRefusal | undefined => {
    const system = ctx.systems.get(invoice.computerSystemId);
    if (!system) return { code: 'system_not_found' };
    if (mode === 'no_verifactu' && system.onlySupportsVerifactu) return { code: 'system_verifactu_only' };
    if (!usableBy(system, ctx.taxpayer.id)) return { code: 'system_single_taxpayer', soleTaxpayerId: system.soleTaxpayerId };
    const issues = checkAgainstIssuer(invoice, ctx.taxpayer.nif);
    if (issues.length > 0) return { code: 'validation_failed', issues };
    const key = duplicateKey(invoice.invoiceNumber, invoice.invoiceDate);
    if (ctx.duplicates.has(key) || seen.has(key)) return duplicateInvoice(invoice);
    seen.add(key);
    return undefined;
  });
}

/** The place right after the head `ctx` read: where a correction or a cancellation goes. */
export function nextPlace(ctx: AppendContext, now: Date): ChainPlace {
  return { chainId: ctx.chain.id, position: ctx.chain.length + 1, previous: ctx.previous, generated: generationTime(now, ctx.previous) };
}

/** The write of one record of an existing invoice on the head `ctx` read; nothing counts against the quota. */
export function recordWrite(
  ctx: AppendContext,
  period: string,
  built: ReturnType<typeof altaRecordRow>,
  answer?: SealedAnswer,
): AppendWrite {
  const system = ctx.systems.get(built.row.computerSystemId);
  return {
    chainId: ctx.chain.id,
    taxpayerId: ctx.taxpayer.id,
    expected: { length: ctx.chain.length, lastInvoiceId: ctx.chain.lastInvoiceId, modeVersion: ctx.chain.mode.version },
    period,
    systems: system ? [system.id] : [],
    soleSystems: system && !system.supportsMultipleTaxpayers ? [system.id] : [],
    records: [built.row],
    lines: built.lines,
    answers: answer ? [answer] : [],
  };
}

export interface PlanOptions {
  accountId: string;
  /** Quota month ("YYYY-MM") the registrations count in. */
  period: string;
  now: Date;
  /** The mode in force (modeAt): the records' QR code and whether they are signed and kept. */
  mode: OperatingMode;
  newId: () => string;
}

/**
 * The records of `items` appended after the chain head `ctx` read, in order, each chained to the one before:
 * the write to make and what each client is told once it commits. Pure: no clock, no I/O of its own.
 */
export function planRegistrations(
  ctx: AppendContext,
  items: RegistrationItem[],
  opts: PlanOptions,
): { write: AppendWrite; registered: RegisteredInvoice[] } {
  const generated = generationTime(opts.now, ctx.previous);
  const systems = new Set<string>();
  const soleSystems = new Set<string>();
  for (const { invoice } of items) {
    const system = ctx.systems.get(invoice.computerSystemId)!;
    systems.add(invoice.computerSystemId);
    if (!system.supportsMultipleTaxpayers) soleSystems.add(system.id);
  }
  const write: AppendWrite = {
    chainId: ctx.chain.id,
    taxpayerId: ctx.taxpayer.id,
    expected: { length: ctx.chain.length, lastInvoiceId: ctx.chain.lastInvoiceId, modeVersion: ctx.chain.mode.version },
    period: opts.period,
    systems: [...systems],
    soleSystems: [...soleSystems],
    records: [],
    lines: [],
    answers: [],
  };
  const registered: RegisteredInvoice[] = [];
  let previous = ctx.previous;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const id = opts.newId();
    const position = ctx.chain.length + i + 1;
    const { row, lines } = altaRecordRow({
      accountId: opts.accountId,
      id,
      taxpayer: ctx.taxpayer,
      chainId: ctx.chain.id,
      position,
      previous,
      generated,
      invoice: item.invoice,
      system: ctx.systems.get(item.invoice.computerSystemId)!,
      severalTaxpayers: ctx.severalTaxpayers,
      warnings: item.warnings,
      sandboxScenario: item.sandboxScenario,
      noVerifactu: opts.mode === 'no_verifactu',
    });
    write.records.push(row);
    for (const line of lines) write.lines.push(line);
    const result: RegisteredInvoice = {
      id,
      taxpayerId: ctx.taxpayer.id,
      chainId: ctx.chain.id,
      invoiceNumber: item.invoice.invoiceNumber,
      hash: row.hash,
      previousHash: row.previousHash,
      chainPosition: position,
      generatedAt: row.generatedAtLiteral,
      qrUrl: row.qrUrl,
      warnings: item.warnings,
      operatingMode: opts.mode,
    };
    registered.push(result);
    previous = {
      id,
      issuerNif: row.issuerNif,
      invoiceNumber: row.invoiceNumber,
      invoiceDate: row.invoiceDate,
      hash: row.hash,
      generatedAt: row.generatedAt,
      generatedAtLiteral: row.generatedAtLiteral,
    };
  }
  // In NO VERI*FACTU the answers wait for the signatures they carry (signKeptWrite).
  if (opts.mode === 'verifactu') sealAnswers(write, items, registered);
  return { write, registered };
}

/** Each item's Idempotency-Key answer, stored with its record in the same statement. */
export function sealAnswers(write: AppendWrite, items: RegistrationItem[], registered: RegisteredInvoice[]): void {
  items.forEach((item, n) => {
    if (item.answer) write.answers.push(item.answer(registered[n]));
  });
}

export interface GenerationTime {
  at: Date;
  /** FechaHoraHusoGenRegistro exactly as hashed and sent. */
  literal: string;
}

/**
 * The record's generation time: now, to the second, in Madrid time — but never earlier than the
 * previous record's, so the chain's timestamps never go backwards even if the clock does.
 */
export function generationTime(now: Date, previous: Pick<ChainHead, 'generatedAt' | 'generatedAtLiteral'> | undefined): GenerationTime {
  const at = new Date(Math.floor(now.getTime() / 1000) * 1000);
  if (previous && at.getTime() < previous.generatedAt.getTime()) return { at: previous.generatedAt, literal: previous.generatedAtLiteral };
  return { at, literal: formatGeneratedAt(at) };
}

export interface QuotaPeriod {
  /** Calendar month in Europe/Madrid, "YYYY-MM". */
  period: string;
  /** Start of the next Madrid month: when the count starts again. */
  resetsAt: Date;
}

let last: QuotaPeriod | undefined;

export function quotaPeriod(now: Date): QuotaPeriod {
  const period = madridToday(now).slice(0, 7);
  if (last?.period === period) return last;
  last = monthOf(period);
  return last;
}

function monthOf(period: string): QuotaPeriod {
  const [year, month] = period.split('-').map(Number);
  const next = month === 12 ? { year: year + 1, month: 1 } : { year, month: month + 1 };
  const firstDay = `${next.year}-${String(next.month).padStart(2, '0')}-01`;
  // Madrid never changes offset on the 1st of a month, so the offset at 00:00 UTC that day is the one at local midnight.
  const offset = formatGeneratedAt(new Date(`${firstDay}T00:00:00Z`)).slice(-6);
  return { period, resetsAt: new Date(`${firstDay}T00:00:00${offset}`) };
}

/** How a taxpayer complies in one environment (Orden HAC/1177/2024): records sent as made, or signed and kept. */
export type OperatingMode = 'verifactu' | 'no_verifactu';

export const OPERATING_MODES: readonly OperatingMode[] = ['verifactu', 'no_verifactu'];

/** A chain's mode as stored: the mode chosen, and the declared end of VERI*FACTU (FechaFinVeriFactu) if any. */
export interface ChainMode {
  mode: OperatingMode;
  /** YYYY-MM-DD, the last day of VERI*FACTU; NO VERI*FACTU from the next day (Europe/Madrid). */
  verifactuUntil: string | null;
  /** When the mode now chosen took effect. */
  since: Date;
}

/** The mode in force at `now`: VERI*FACTU until the day after a declared end, then NO VERI*FACTU. */
export function modeAt(m: ChainMode, now: Date): OperatingMode {
  if (m.mode === 'verifactu' && m.verifactuUntil !== null && madridToday(now) > m.verifactuUntil) return 'no_verifactu';
  return m.mode;
}

/**
 * What a request for `requested` does, at `now`:
 * - `unchanged`: already in force (or already declared);
 * - `started`: NO VERI*FACTU from now (event 01), allowed while VERI*FACTU has not been used since it was chosen;
 * - `ended`: VERI*FACTU from now (event 02): it can start at any time (art. 17);
 * - `declared`: leaving VERI*FACTU declared with FechaFinVeriFactu on 31 December of this year, NO VERI*FACTU from
 *   1 January: VERI*FACTU once used is kept until the end of the year;
 * - `withdrawn`: a declared end taken back before it took effect.
 * `verifactuUsed`: a record was generated in VERI*FACTU since it was chosen (what binds the taxpayer to it).
 */
export type ModeChange = { kind: 'unchanged' } | { kind: 'started' | 'ended' | 'declared' | 'withdrawn'; next: ChainMode };

export function changeMode(current: ChainMode, requested: OperatingMode, now: Date, verifactuUsed: boolean): ModeChange {
  const inForce = modeAt(current, now);
  if (requested === 'verifactu') {
    if (inForce === 'no_verifactu') return { kind: 'ended', next: { mode: 'verifactu', verifactuUntil: null, since: now } };
    if (current.verifactuUntil === null) return { kind: 'unchanged' };
    return { kind: 'withdrawn', next: { ...current, verifactuUntil: null } };
  }
  if (inForce === 'no_verifactu') return { kind: 'unchanged' };
  if (!verifactuUsed) return { kind: 'started', next: { mode: 'no_verifactu', verifactuUntil: null, since: now } };
  if (current.verifactuUntil !== null) return { kind: 'unchanged' };
  return { kind: 'declared', next: { ...current, verifactuUntil: `${madridToday(now).slice(0, 4)}-12-31` } };
}
