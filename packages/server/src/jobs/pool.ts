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

/**
 * Iterates `source`, asking it for the next element while the current one is processed (the next
 * page of a listing is on its way while the items of this one are fetched and stored).
 */
export async function* readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let next = iterator.next();
  let finished = false;
  try {
    for (;;) {
      const current = await next;
      if (current.done) {
        finished = true;
        return;
      }
      next = iterator.next();
      yield current.value;
    }
  } finally {
    // Left early (stopped, or failed): the element asked for is dropped and the source closed.
    if (!finished) {
      next.then(() => iterator.return?.()).catch(() => undefined);
    }
  }
}
