/**
 * The data plane's bounds on work at once: background work (a batch recorded while the next
 * messages are fetched) runs at most `limit` at a time, is waited for whole, and its first failure
 * reaches the caller.
 */
import { describe, expect, it } from 'vitest';
import { backgroundLimit } from '../src/jobs/pool.js';

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

describe('background work with a limit', () => {
  it('runs at most the limit at once, in the order added, and settles once all is done', async () => {
    const limit = backgroundLimit(2);
    let running = 0;
    let most = 0;
    const done: number[] = [];
    for (let i = 0; i < 7; i++) {
      await limit.add(async () => {
        running += 1;
        most = Math.max(most, running);
        await tick();
        running -= 1;
        done.push(i);
      });
    }
    expect(done.length).toBeLessThan(7);
    await limit.settle();
    expect(most).toBe(2);
    expect(done.sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('gives its first failure to the next add and to settle, after the work under way ended', async () => {
    const limit = backgroundLimit(1);
    let finished = false;
    await limit.add(async () => {
      await tick();
      throw new Error('first');
    });
    await expect(
      limit.add(async () => {
        finished = true;
      }),
    ).rejects.toThrow('first');
    expect(finished).toBe(false);
    await expect(limit.settle()).rejects.toThrow('first');
  });
});
