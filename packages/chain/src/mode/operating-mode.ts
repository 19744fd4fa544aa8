import { madridToday } from '@vf/core';

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
