/**
 * Search snippets as HTML-safe text. Archived mail and messages come from strangers, so a snippet is
 * escaped as a whole (& < > " ' as entities) and its only markup is the server's own <mark>…</mark>
 * around the hits.
 */
import { randomBytes } from 'node:crypto';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

export interface HitMarkers {
  start: string;
  stop: string;
}

/**
 * Markers for ts_headline's StartSel and StopSel: letters and digits only (nothing escaping changes
 * or the option syntax needs quoted), random per search, so no archived text can contain them.
 */
export function hitMarkers(): HitMarkers {
  const id = randomBytes(16).toString('hex');
  return { start: `hitstart${id}`, stop: `hitstop${id}` };
}

/** A headline with `markers` around its hits as escaped text with <mark> and </mark> instead. */
export function markHits(headline: string, markers: HitMarkers): string {
  return escapeHtml(headline).replaceAll(markers.start, '<mark>').replaceAll(markers.stop, '</mark>');
}
