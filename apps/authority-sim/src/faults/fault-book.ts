import type { ActiveFault, FaultKind, FaultSubject, InjectedFault } from './fault-types';

export interface FaultFilter {
  id?: number;
  kind?: FaultKind;
  nif?: string;
}

/**
 * The faults switched on, in the order they were added. A request (or record) takes the first active fault of the
 * kinds asked for whose scope matches; a `next` budget is spent as it fires and the fault goes away at zero.
 */
export class FaultBook {
  private faults: ActiveFault[] = [];
  private lastId = 0;

  constructor(private readonly random: () => number = Math.random) {}

  add(fault: InjectedFault): ActiveFault {
    const active = { ...fault, id: ++this.lastId } as ActiveFault;
    this.faults.push(active);
    return active;
  }

  /** Removes the faults matching every given field (all of them without a filter); returns how many. */
  clear(filter: FaultFilter = {}): number {
    const before = this.faults.length;
    this.faults = this.faults.filter(
      (f) =>
        !(
          (filter.id === undefined || f.id === filter.id) &&
          (filter.kind === undefined || f.kind === filter.kind) &&
          (filter.nif === undefined || f.nif === filter.nif)
        ),
    );
    return before - this.faults.length;
  }

  list(): readonly ActiveFault[] {
    return this.faults;
  }

  /** The first fault of these kinds that applies to the subject and fires now (spending one of its `next`). */
  take<K extends FaultKind>(kinds: readonly K[], subject: FaultSubject): Extract<ActiveFault, { kind: K }> | undefined {
    for (const fault of this.faults) {
      if (!(kinds as readonly FaultKind[]).includes(fault.kind) || !matches(fault, subject)) continue;
      if (fault.next !== undefined) {
        fault.next -= 1;
        if (fault.next <= 0) this.faults = this.faults.filter((f) => f !== fault);
        return fault as Extract<ActiveFault, { kind: K }>;
      }
      if (fault.probability === undefined || this.random() < fault.probability) return fault as Extract<ActiveFault, { kind: K }>;
    }
    return undefined;
  }
}

function matches(fault: ActiveFault, subject: FaultSubject): boolean {
  return (
    (fault.nif === undefined || fault.nif === subject.nif) &&
    (fault.certificateNif === undefined || fault.certificateNif === subject.certificateNif) &&
    (fault.environment === undefined || fault.environment === subject.environment) &&
    (fault.operation === undefined || fault.operation === subject.operation) &&
    (fault.invoiceNumber === undefined || fault.invoiceNumber === subject.invoiceNumber)
  );
}
