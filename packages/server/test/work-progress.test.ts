/**
 * Progress from what is known to be left (progress.ts), checked over many random runs: it never
 * exceeds the share of the items found so far that are done, never says 99 % after a run's first
 * item while more is listed or other accounts wait, and is 100 only once finished (that it never goes
 * down as listings grow is the run context's: it writes the greatest value, see jobs-progress.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { progressOf, WorkPart } from '../src/jobs/progress.js';

/** A small deterministic generator, so that a failure can be run again. */
function random(seed: number) {
  let state = seed >>> 0;
  return (n: number) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state % n;
  };
}

describe('a run’s progress from the work known to be left', () => {
  it('never exceeds the share done of what each account found, over 200 random runs listed page by page', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const next = random(seed);
      const run = new WorkPart(() => undefined);
      const accounts = 1 + next(4);
      const parts = run.split(accounts);
      const found = parts.map(() => 0);
      const finished = parts.map(() => 0);
      for (const [index, part] of parts.entries()) {
        const pages = 1 + next(4);
        for (let page = 0; page < pages; page++) {
          const items = 1 + next(10);
          const more = page < pages - 1 ? items : undefined;
          part.add(items, more);
          found[index] = (found[index] ?? 0) + items;
          for (let i = 0; i < items; i++) {
            part.finish(1);
            finished[index] = (finished[index] ?? 0) + 1;
            const progress = progressOf(run);
            // Each account weighs the same; of each, at most the share of its found items done counts.
            const done = found.reduce((sum, f, k) => sum + (f === 0 ? 0 : (finished[k] ?? 0) / f), 0) / accounts;
            expect(progress, `seed ${seed}`).toBeLessThanOrEqual(Math.floor(100 * done));
            expect(progress, `seed ${seed}`).toBeLessThan(100);
          }
        }
        part.end();
      }
      expect(progressOf(run)).toBe(99);
    }
  });

  it('is far from 99 % after the first item, whether the listing goes on or other accounts wait', () => {
    const paged = new WorkPart(() => undefined);
    paged.add(1, 50);
    paged.finish(1);
    expect(progressOf(paged)).toBeLessThan(5);

    const run = new WorkPart(() => undefined);
    const [first] = run.split(4) as [WorkPart];
    first.add(1);
    first.finish(1);
    expect(progressOf(run)).toBe(25);
  });
});
