/**
 * What every generated thing of a simulated tenant is drawn from: a small deterministic generator
 * seeded from text, words of a business vocabulary, ids derived from a seed and the tenant's fixed
 * clock, so that the same tenant id always gives the same content.
 */
import { createHash } from 'node:crypto';

/** A small deterministic generator (mulberry32) seeded from text. */
export function prng(...seed: (string | number)[]) {
  let a = createHash('sha256').update(seed.join('|')).digest().readUInt32LE(0);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'invoice report budget project meeting agenda contract offer customer quarter figures review design ' +
  'draft approval schedule release backup archive policy compliance retention audit travel expense ' +
  'rechnung bericht angebot vertrag kunde besprechung entwurf freigabe termin reise ausgaben planung'
).split(' ');

export function words(random: () => number, count: number): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(WORDS[Math.floor(random() * WORDS.length)] ?? 'data');
  return out.join(' ');
}

/** The instant every generated date counts from. */
export const BASE_TIME = Date.parse('2026-09-01T08:00:00Z');

/** The instant `offsetMinutes` after BASE_TIME, as ISO text. */
export const iso = (offsetMinutes: number) => new Date(BASE_TIME + offsetMinutes * 60_000).toISOString();

/** The instant `minutes` after the ISO date-time `at`, as ISO text. */
export const later = (at: string, minutes: number) => new Date(Date.parse(at) + minutes * 60_000).toISOString();

/** A GUID-shaped id derived from the seed. */
export function hexId(...seed: (string | number)[]) {
  const h = createHash('sha256').update(seed.join('|')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
