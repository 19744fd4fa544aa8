import type { AppendedChain } from './append-group';

/** Waits of the senders' wake-ups of lone registrations are merged over this many milliseconds (docs/scaling.md). */
export const LONE_WAKE_WINDOW_MS = 50;

type Wake = (chains: Map<string, boolean>) => Promise<unknown>;

/**
 * Merges the wake-ups that follow lone registrations: the first goes at once, the ones asked for within `windowMs` of
 * it go together as one when the window ends, and so on. A client registering one invoice after another then costs
 * Redis one wake-up per window instead of one per registration. Every wake-up still starts after the commits it
 * stands for (the check that the chain's job exists is made after them), so no record is left without a sender; a
 * sender looks at most `windowMs` later. `wake`: each chain with whether a full message now waits for it.
 */
export function coalescedWake(wake: Wake, windowMs: number, now: () => number = Date.now) {
  let quietUntil = 0;
  let next: { chains: Map<string, boolean>; woken: Promise<unknown> } | undefined;
  return (chains: AppendedChain[], full: (c: AppendedChain) => boolean): Promise<unknown> => {
    const at = now();
    if (!next && at >= quietUntil) {
      quietUntil = at + windowMs;
      return wake(new Map(chains.map((c) => [c.chainId, full(c)])));
    }
    if (!next) {
      const merged = new Map<string, boolean>();
      const woken = new Promise((resolve) => setTimeout(resolve, Math.max(0, quietUntil - at))).then(() => {
        next = undefined;
        quietUntil = now() + windowMs;
        return wake(merged);
      });
      next = { chains: merged, woken };
    }
    for (const c of chains) next.chains.set(c.chainId, next.chains.get(c.chainId) === true || full(c));
    return next.woken;
  };
}
