/** Runs `work` over `items` with at most `limit` at once; resolves when all are done. */
export async function forEachLimit<T>(items: Iterable<T>, limit: number, work: (item: T) => Promise<void>) {
  const iterator = items[Symbol.iterator]();
  let failure: unknown;
  const lane = async () => {
    for (;;) {
      if (failure !== undefined) return;
      const next = iterator.next();
      if (next.done) return;
      try {
        await work(next.value);
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, limit) }, lane));
  if (failure !== undefined) throw failure;
}
