import DataLoader from 'dataloader';
import type { Db } from '@vf/db';
import { accountStore, type AccountWithPlan } from '@vf/db';

/**
 * Looks API key digests up in batches: the requests that arrive while a lookup is in flight are looked up together
 * in the next one (one round trip for all of them), and a lookup with none in flight goes at once. Never cached: a
 * regenerated key stops working with the next request.
 */
export function createApiKeyAccounts(db: Db): { find(digest: string): Promise<AccountWithPlan | undefined> } {
  let inFlight: Promise<unknown> | undefined;
  const loader = new DataLoader<string, AccountWithPlan | undefined>(
    async (digests) => {
      const lookup = accountStore.findByKeyDigests(db, digests);
      const settled = lookup.then(
        () => undefined,
        () => undefined,
      );
      inFlight = settled;
      void settled.then(() => {
        if (inFlight === settled) inFlight = undefined;
      });
      const rows = await lookup;
      const byDigest = new Map(rows.map(({ apiKeyDigest, ...account }) => [apiKeyDigest, account]));
      return digests.map((d) => byDigest.get(d));
    },
    {
      cache: false,
      // The next batch collects until the current one is answered; with none in flight, it goes after this turn of
      // the event loop, so requests read in the same turn still share it.
      batchScheduleFn: (dispatch) => {
        const previous = inFlight;
        if (previous) void previous.finally(dispatch);
        else setImmediate(dispatch);
      },
    },
  );
  return { find: (digest) => loader.load(digest) };
}
