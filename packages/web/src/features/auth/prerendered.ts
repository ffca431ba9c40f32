/**
 * The sign-in page is prerendered at build time into index.html (scripts/prerender.ts) and shown on
 * /signin before the app's script has loaded. React's first render replaces it with the same page,
 * which takes over what was typed into it, its focus, the language chosen in it and a submission
 * made meanwhile.
 */

/** Marks the prerendered form. */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered';
/**
 * Marks the prerendered offer to sign up, invisible until the boot script learns from
 * /app-config.json (or the answer kept from the last visit) whether sign-up is open.
 */
export const SIGN_UP_ATTRIBUTE = 'data-sign-up';

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
interface FoundSignIn {
  form: HTMLFormElement;
  languageSwitch: HTMLSelectElement | null;
  focused?: 'email' | 'password';
}
let prerendered: FoundSignIn | null | undefined;

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
  // The page's one select, in its header (the form has none): under the page's top element, which is
  // #root's child, in the document or removed from it.
  let top: Element = form;
  while (top.parentElement && top.parentElement.id !== 'root') top = top.parentElement;
  const languageSwitch = (form.closest('#root') ?? top).querySelector('select');
  const found: FoundSignIn = { form, languageSwitch };
  const focus = (field: EventTarget | null) => {
    const name = field instanceof HTMLInputElement && form.contains(field) ? field.name : undefined;
    if (name === 'email' || name === 'password') found.focused = name;
    else delete found.focused;
  };
  focus(document.activeElement);
  // The app's first render yields to the browser (a transition) before its commit replaces this page:
  // the field focused until then is the one whose typing goes on in the app's page. (Kept from the
  // render only, a field focused in between lost what was typed next into the wrong field.) Focus
  // leaving the form for another element counts; its removal by the commit (no related target) does not.
  form.addEventListener('focusin', (event) => focus(event.target));
  form.addEventListener('focusout', (event) => {
    if (event.relatedTarget instanceof Node && !form.contains(event.relatedTarget)) focus(null);
  });
  prerendered = found;
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
