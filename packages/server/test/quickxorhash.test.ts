import { randomBytes } from 'node:crypto';
import { quickXorHash as simulatorHash } from '@compliance-portal/m365-simulator';
import { describe, expect, it } from 'vitest';
import { quickXorHash } from '../src/m365/quickxorhash.js';

/**
 * Published values of QuickXorHash (input and hash in base64), from rclone's OneDrive backend, an
 * implementation of its own that OneDrive checks every day: an outside referee for ours.
 */
const PUBLISHED: readonly [string, string][] = [
  ['', 'AAAAAAAAAAAAAAAAAAAAAAAAAAA='],
  ['Sg==', 'SgAAAAAAAAAAAAAAAQAAAAAAAAA='],
  ['XoJ1AsoR4fDYJrDqYs4=', 'XhBEHQSgjAiEAx7YPgEs1CEGZwA='],
  ['gQaybEqS/4UlDc8e4IJm', 'gDCALNigBEn8oxAlZ8AzPAAOQZg='],
  ['2fuxhBJXtpWFe8dOfdGeHw==', 'O9tHLAghgSvYohKFyMMxnNCHaHg='],
  ['T6LYJIfDh81JrAK309H2JMJTXis=', 'zBTHrspn3mEcohlJdIUAbjGNaNg='],
  ['NbYXsp5/K6mR+NmHwExjvWeWDJFnXTKWVlzYHoesp2E=', 'wjuAuWDiq04qDt1R8hHWDDcwVoQ='],
  [
    'ikwCorI7PKWz17EI50jZCGbV9JU2E8bXVfxNMg5zdmqSZ2NlsQPp0kqYIPjzwTg1MBtfWPg53k0h0P2naJNEVgrqpoHTfV2b3pJ4m0zYPTJmUX4Bg/lOxcnCxAYKU29Y5F0U8Quz7ZXFBEweftXxJ7RS4r6N7BzJrPsLhY7hgck=',
    'imAoFvCWlDn4yVw3/oq1PDbbm6U=',
  ],
];

describe("the engine's QuickXorHash", () => {
  it.each(PUBLISHED)('hashes %s as published', (input, hash) => {
    expect(quickXorHash(Buffer.from(input, 'base64'))).toBe(hash);
  });

  it("agrees with the simulator's independent implementation on content of every length up to 2 blocks and beyond", () => {
    for (const length of [1, 19, 20, 21, 159, 160, 161, 319, 320, 4096, 100_003]) {
      const content = randomBytes(length);
      expect(quickXorHash(content), `${length} bytes`).toBe(simulatorHash(content));
    }
  });
});
