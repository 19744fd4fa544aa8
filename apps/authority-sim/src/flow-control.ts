/**
 * Tracks AEAT's flow-control rule per ObligadoEmision (Orden HAC/1177/2024 art. 16.2): after an answer carrying
 * TiempoEsperaEnvio t, the next send may come after t seconds or with 1000 records. AEAT's reaction
 * to an early send is unconfirmed, so the simulator only counts it.
 */
export class FlowControl {
  private readonly nextAllowed = new Map<string, number>();

  /** True when this send breaks the rule. */
  isViolation(nif: string, recordCount: number, now: Date): boolean {
    const allowedAt = this.nextAllowed.get(nif);
    return allowedAt !== undefined && now.getTime() < allowedAt && recordCount < 1000;
  }

  answered(nif: string, now: Date, waitSeconds: number): void {
    this.nextAllowed.set(nif, now.getTime() + waitSeconds * 1000);
  }

  /** The taxpayer's timer forgotten: its next send is on time whenever it comes. */
  forget(nif: string): void {
    this.nextAllowed.delete(nif);
  }

  clear(): void {
    this.nextAllowed.clear();
  }
}
