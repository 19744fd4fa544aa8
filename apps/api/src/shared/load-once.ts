/**
 * Runs `load` on the first call and gives every caller its promise. A failed load is not kept: the next call tries
 * again, so a passing problem (a module read while the disk was busy) does not last until the process restarts.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    if (loading) return loading;
    const current = load();
    loading = current;
    current.catch(() => {
      if (loading === current) loading = undefined;
    });
    return current;
  };
}
