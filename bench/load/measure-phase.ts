/** The two moments of a load the harness takes its CPU readings at: before the first measured round, after the last. */
export type MeasurePhase = 'measuring' | 'measured';

/** How a load reports its phases: to the harness from the load-generator process, to no one elsewhere (tests). */
export type AnnouncePhase = (phase: MeasurePhase) => Promise<void>;

export const noPhases: AnnouncePhase = () => Promise.resolve();

export interface PhaseMessage {
  phase: MeasurePhase;
}

/**
 * Tells the harness (over the IPC channel `runLoad` opens) that the measured rounds start or have ended, and
 * waits until it has read the processes' CPU, so that neither the warm-up nor the load's own start is counted.
 * Only for the load-generator process (load-main.ts), whose parent is the harness.
 */
export const announcePhase: AnnouncePhase = (phase) => {
  const send = process.send?.bind(process);
  if (!send) return Promise.resolve();
  return new Promise((resolve) => {
    const onAck = (message: unknown) => {
      if ((message as Partial<PhaseMessage> | null)?.phase !== phase) return;
      process.off('message', onAck);
      resolve();
    };
    process.on('message', onAck);
    send({ phase } satisfies PhaseMessage);
  });
};
