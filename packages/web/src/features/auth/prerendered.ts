/**
 * The sign-in page is prerendered at build time into index.html (scripts/prerender.ts) and shown on
 * /signin before the app's script has loaded. React's first render replaces it with the same page,
 * which takes over what was typed into it, its focus, the language chosen in it and a submission
 * made meanwhile.
 */

/** Marks the prerendered form. */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered';

export interface PrerenderedSignIn {
  email: string;
  password: string;
  /** The field that had the focus when React rendered. */
  focused?: 'email' | 'password';
  /** Submitted before the app was there (the boot script marks the form so). */
  submitted: boolean;
  /** The language chosen in its language switch. */
  language?: string;
}

/** The prerendered form, found (while React renders, before its commit removes it) only once. */
let prerendered:
  | { form: HTMLFormElement; languageSwitch: HTMLSelectElement | null; focused?: 'email' | 'password' }
  | null
  | undefined;

/**
 * Finds the prerendered form: in the document while the app renders, or as the boot script kept it
 * (scripts/prerender.ts) when a first commit of something else has already cleared #root.
 */
export function findPrerenderedSignIn(): void {
  if (prerendered !== undefined || typeof document === 'undefined') return;
  const kept = (window as { prerenderedSignIn?: Element | null }).prerenderedSignIn;
  const form =
    document.querySelector<HTMLFormElement>(`form[${PRERENDERED_ATTRIBUTE}]`) ??
    (kept instanceof HTMLFormElement ? kept : null);
  if (!form) {
    prerendered = null;
    return;
  }
  const active = document.activeElement;
  const focused = active instanceof HTMLInputElement && form.contains(active) ? active.name : undefined;
  // The page's one select, in its header (the form has none): under the page's top element, which is
  // #root's child, in the document or removed from it.
  let top: Element = form;
  while (top.parentElement && top.parentElement.id !== 'root') top = top.parentElement;
  const languageSwitch = (form.closest('#root') ?? top).querySelector('select');
  prerendered = { form, languageSwitch, ...(focused === 'email' || focused === 'password' ? { focused } : {}) };
}

/**
 * What the prerendered form holds, read once the app's page is on screen (the form, removed by then,
 * keeps its values: all typed before the swap counts); null without one, or when already taken.
 */
export function takePrerenderedSignIn(): PrerenderedSignIn | null {
  if (!prerendered) return null;
  const { form, languageSwitch, focused } = prerendered;
  prerendered = null;
  const value = (name: string) => {
    const input = form.elements.namedItem(name);
    return input instanceof HTMLInputElement ? input.value : '';
  };
  return {
    email: value('email'),
    password: value('password'),
    ...(focused ? { focused } : {}),
    submitted: form.hasAttribute('data-submitted'),
    ...(languageSwitch ? { language: languageSwitch.value } : {}),
  };
}

/** Forgets the form found (tests render the page more than once). */
export function resetPrerenderedSignIn(): void {
  prerendered = undefined;
}
