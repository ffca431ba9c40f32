/**
 * The window's width against the theme's breakpoints, followed as it is resized: for content that
 * moves rather than hides on a narrow screen (a hidden column's value under a row's name). Where media
 * queries are unknown (jsdom) the window counts as wide, so nothing is rendered twice there.
 */
import { useMemo, useSyncExternalStore } from 'react';

export type Breakpoint = 'sm' | 'md' | 'lg' | 'xl' | '2xl';
/** The theme's breakpoints (app/theme.ts), in px. */
const BREAKPOINT_PX: Record<Breakpoint, number> = { sm: 600, md: 900, lg: 1200, xl: 1350, '2xl': 1536 };
const BREAKPOINT_NAMES = Object.keys(BREAKPOINT_PX) as Breakpoint[];
/** The media query under which Chakra's `hideBelow` hides a cell. */
const belowQuery = (b: Breakpoint) => `(max-width: ${BREAKPOINT_PX[b] - 0.02}px)`;

/** One media query list per breakpoint, made once: every table and dashboard reads the same five. */
let lists: { name: Breakpoint; list: MediaQueryList }[] | undefined;
function mediaLists() {
  if (!lists && typeof globalThis.matchMedia === 'function')
    lists = BREAKPOINT_NAMES.map((name) => ({ name, list: globalThis.matchMedia(belowQuery(name)) }));
  return lists;
}

function subscribeWidth(listener: () => void) {
  const all = mediaLists();
  if (!all) return () => {};
  for (const { list } of all) list.addEventListener('change', listener);
  return () => {
    for (const { list } of all) list.removeEventListener('change', listener);
  };
}
/** The breakpoints the window is below now, as "sm,md" (a stable snapshot); none where media queries are unknown. */
function belowSnapshot(): string {
  const all = mediaLists();
  if (!all) return '';
  return all
    .filter(({ list }) => list.matches)
    .map(({ name }) => name)
    .join(',');
}
/** The breakpoints the window is narrower than, followed as it is resized. */
export function useBelow(): ReadonlySet<string> {
  const snapshot = useSyncExternalStore(subscribeWidth, belowSnapshot, () => '');
  return useMemo(() => new Set(snapshot.split(',').filter(Boolean)), [snapshot]);
}
