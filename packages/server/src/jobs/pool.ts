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

/**
 * Work started without waiting for it, at most `limit` at once (`add` waits for a free place): a
 * batch is recorded while the next messages are fetched. The first failure is thrown by the next
 * `add` or by `settle`, which waits for all that was started.
 */
export function backgroundLimit(limit: number) {
  const running = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  const check = () => {
    if (failure) throw failure.error;
  };
  return {
    async add(work: () => Promise<void>): Promise<void> {
      while (running.size >= Math.max(1, limit)) await Promise.race(running);
      check();
      const started: Promise<void> = work()
        .catch((error: unknown) => {
          failure ??= { error };
        })
        .finally(() => running.delete(started));
      running.add(started);
    },
    async settle(): Promise<void> {
      await Promise.all(running);
      check();
    },
  };
}
