import { afterEach, describe, expect, it } from 'vitest';
import { takeTwinButtons } from './twin-buttons';

/** A button with the text, added to the parent. */
function button(parent: Element, text: string): HTMLButtonElement {
  const element = document.createElement('button');
  element.textContent = text;
  parent.append(element);
  return element;
}

/** A dialog of the role, added to the body as a portal would. */
function dialog(role: 'dialog' | 'alertdialog' = 'alertdialog'): HTMLElement {
  const element = document.createElement('div');
  element.setAttribute('role', role);
  document.body.append(element);
  return element;
}

afterEach(() => {
  document.body.replaceChildren();
});

describe('buttons a person sees twice (the check every component test runs)', () => {
  it("finds the page's button and the dialog's button that opened from it with the same name", () => {
    const page = document.createElement('main');
    document.body.append(page);
    button(page, 'Restore').click();
    const confirm = dialog();
    // The page behind a modal dialog is hidden from assistive technology, not from the eye.
    page.setAttribute('aria-hidden', 'true');
    button(confirm, 'Cancel');
    button(confirm, ' Restore ').click();
    expect(takeTwinButtons()).toEqual([
      '"Restore": the button that opened the dialog, still on the screen behind it, is named the same',
    ]);
  });

  it("finds a row's button whose text, not its label, is the dialog button's name", () => {
    const release = button(document.body, 'Release');
    release.setAttribute('aria-label', 'Release the legal hold of the case "Known mail"');
    release.click();
    button(dialog(), 'Release').click();
    expect(takeTwinButtons()).toEqual([
      '"Release": the button that opened the dialog, still on the screen behind it, is named the same',
    ]);
  });

  it('finds none when the opener says that a dialog follows, or is gone from the screen', () => {
    button(document.body, 'Restore…').click();
    button(dialog(), 'Restore').click();
    expect(takeTwinButtons()).toEqual([]);

    document.body.replaceChildren();
    const menu = document.createElement('div');
    document.body.append(menu);
    button(menu, 'Remove').click();
    menu.hidden = true;
    button(dialog(), 'Remove').click();
    expect(takeTwinButtons()).toEqual([]);
  });

  it("follows a form's button to the page's button that opened the form", () => {
    button(document.body, 'Create deletion job').click();
    const form = dialog('dialog');
    const submit = button(form, 'Create job');
    submit.click();
    let confirm = dialog();
    const cancel = button(confirm, 'Cancel');
    cancel.click();
    confirm.remove();
    // Cancel of the confirmation, gone with it, opened nothing: the form's button opens it again.
    submit.click();
    confirm = dialog();
    button(confirm, 'Create deletion job').click();
    expect(takeTwinButtons()).toEqual([
      '"Create deletion job": the button that opened the dialog, still on the screen behind it, is named the same',
    ]);
  });

  it('names nothing when a dialog button is named as a button that opened nothing', () => {
    button(document.body, 'Save');
    button(document.body, 'Open').click();
    button(dialog(), 'Save').click();
    expect(takeTwinButtons()).toEqual([]);
  });
});
