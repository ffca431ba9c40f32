import { describe, expect, it } from 'vitest';
import { formatBytes, formatDate, formatDateTime, formatNumber } from './format';

/** The formatters keep one Intl formatter per language; they must read as the engine's toLocale* do. */
describe('the display formatters', () => {
  const dates = ['2026-11-23T10:05:00Z', '1999-12-31T23:59:59.999Z', '2026-02-29', 'not a date'];
  for (const language of ['en', 'de']) {
    it(`read as toLocaleString does, in ${language}, also when used again`, () => {
      for (let round = 0; round < 2; round++) {
        for (const iso of dates) {
          expect(formatDate(iso, language)).toBe(new Date(iso).toLocaleDateString(language, { dateStyle: 'medium' }));
          expect(formatDateTime(iso, language)).toBe(
            new Date(iso).toLocaleString(language, { dateStyle: 'medium', timeStyle: 'short' }),
          );
        }
        for (const n of [0, 7, 1234567.891, -42.5]) expect(formatNumber(n, language)).toBe(n.toLocaleString(language));
        expect(formatBytes(1023, language)).toBe(`${(1023).toLocaleString(language, { maximumFractionDigits: 0 })} B`);
        expect(formatBytes(1536, language)).toBe(`${(1.5).toLocaleString(language)} KB`);
        expect(formatBytes(5 * 1024 ** 3 + 1, language)).toBe(`${(5).toLocaleString(language)} GB`);
      }
      expect(formatDate(null, language)).toBe('—');
      expect(formatDateTime(undefined, language)).toBe('—');
    });
  }

  it('tell the languages apart', () => {
    expect(formatNumber(1234.5, 'en')).toBe('1,234.5');
    expect(formatNumber(1234.5, 'de')).toBe('1.234,5');
    expect(formatDate('2026-11-23T10:00:00Z', 'de')).not.toBe(formatDate('2026-11-23T10:00:00Z', 'en'));
  });
});
