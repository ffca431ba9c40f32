/**
 * What the generated tenants are made of: a seeded pseudo-random generator, words to fill names and
 * bodies, GUID-shaped ids and the fixed instants content is dated at, so that the same tenant id gives
 * the same content.
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

/** An element of a list, drawn. */
export const pick = <T>(random: () => number, list: readonly T[]): T =>
  list[Math.floor(random() * list.length)] ?? (list[0] as T);

/** When generated content starts: every generated date is a fixed offset from it. */
export const BASE_TIME = Date.parse('2026-09-01T08:00:00Z');
export const iso = (offsetMinutes: number) => new Date(BASE_TIME + offsetMinutes * 60_000).toISOString();

export function hexId(...seed: (string | number)[]) {
  const h = createHash('sha256').update(seed.join('|')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** The instant `minutes` after the ISO date-time `at`, as ISO text. */
export const later = (at: string, minutes: number) => new Date(Date.parse(at) + minutes * 60_000).toISOString();
