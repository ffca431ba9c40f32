/**
 * Finds a button that a person sees twice: the page's button that opened a dialog, still on the screen
 * behind it, and the dialog's own button with the same name. A test that clicks the dialog's button then
 * fails with both names, so each such pair is told apart on the screen ("Create deletion job…" opens the
 * dialog whose "Create deletion job" confirms it), and a query by role and name can never take one for
 * the other. Every component test that opens a dialog and clicks in it is checked this way.
 */

const BUTTON = 'button, [role="button"]';
const DIALOG = '[role="dialog"], [role="alertdialog"]';

const normal = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

/** The names of a button: the one a query by role asks for (aria-label, else the text), and the text a person reads. */
function namesOf(element: Element): string[] {
  const text = normal(element.textContent);
  return [normal(element.getAttribute('aria-label') ?? text), text].filter((name) => name !== '');
}

/** Whether the element is on the screen: in the document and not hidden by an ancestor. */
function shown(element: Element): boolean {
  if (!element.isConnected) return false;
  for (let node: Element | null = element; node; node = node.parentElement) {
    if (node.hasAttribute('hidden')) return false;
    // aria-hidden is left out: a modal dialog hides the page behind it from assistive technology, not
    // from the eye.
    if (node instanceof HTMLElement && node.style.display === 'none') return false;
  }
  return true;
}

/** The buttons clicked in this test, the newest last. */
let clicked: Element[] = [];
let twins: string[] = [];

/**
 * The buttons that opened the dialog, newest first: the one clicked last outside it, and when that one
 * is itself in a dialog (a form's "Create job" opening its confirmation), the one that opened that.
 * Buttons no longer in the document are passed over.
 */
function openers(dialog: Element): Element[] {
  const found: Element[] = [];
  let inside: Element | null = dialog;
  for (let index = clicked.length - 1; index >= 0 && inside; index -= 1) {
    const element = clicked[index] as Element;
    // A button of a dialog closed since (a confirmation's Cancel) opened nothing on the screen.
    if (inside.contains(element) || !element.isConnected) continue;
    found.push(element);
    inside = element.closest(DIALOG);
  }
  return found;
}

function onClick(event: MouseEvent): void {
  const target = event.target instanceof Element ? event.target.closest(BUTTON) : null;
  if (!target) return;
  const dialog = target.closest(DIALOG);
  const names = namesOf(target);
  if (dialog) {
    for (const opener of openers(dialog)) {
      const same = namesOf(opener).find((name) => names.includes(name));
      if (same && shown(opener)) {
        twins.push(`"${same}": the button that opened the dialog, still on the screen behind it, is named the same`);
        break;
      }
    }
  }
  clicked = [...clicked.slice(-49), target];
}

/** Starts watching clicks; call once in the tests' setup. */
export function watchTwinButtons(): void {
  document.addEventListener('click', onClick, true);
}

/** The twins seen since the last call, and a fresh start for the next test. */
export function takeTwinButtons(): string[] {
  const found = twins;
  twins = [];
  clicked = [];
  return found;
}
