import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { act, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../i18n';
import { de } from '../../i18n/de';
import { showToast, TOAST_DURATION_MS, toaster } from './toaster';
import { Toaster } from './toaster-view';

/** The toast showing `text`, as the toaster renders it (its root carries the placement and state). */
const toastOf = (text: string) => screen.queryByText(text)?.closest<HTMLElement>('[data-part="root"]') ?? null;

/** Product-spec.md section 9: toasts close after 5000 ms, at the top right. */
describe('the toaster', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    act(() => toaster.remove());
    vi.useRealTimers();
  });

  it('gives every toast 5000 ms unless told otherwise', () => {
    expect(TOAST_DURATION_MS).toBe(5000);
  });

  it('shows a toast at the top right and closes it after 5000 ms, not before', async () => {
    render(
      <ChakraProvider value={defaultSystem}>
        <Toaster />
      </ChakraProvider>,
    );
    act(() => showToast('success', 'The price was saved.'));
    await act(() => vi.advanceTimersByTimeAsync(50));
    const toast = toastOf('The price was saved.');
    expect(toast?.getAttribute('data-state')).toBe('open');
    expect(toast?.getAttribute('data-placement')).toBe('top-end');
    // The region it is shown in: fixed at the top, lined up at the end (right, left to right).
    const region = toast?.closest<HTMLElement>('[data-part="group"]');
    expect(region?.getAttribute('data-placement')).toBe('top-end');
    expect(region?.getAttribute('data-side')).toBe('top');
    expect(region?.getAttribute('data-align')).toBe('end');
    expect(region?.style.position).toBe('fixed');
    expect(region?.style.alignItems).toBe('flex-end');

    // Still open just before 5000 ms (50 ms have passed), closing just after.
    await act(() => vi.advanceTimersByTimeAsync(4900));
    expect(toastOf('The price was saved.')?.getAttribute('data-state')).toBe('open');
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(toastOf('The price was saved.')?.getAttribute('data-state') ?? 'closed').toBe('closed');
    // Then removed, after the exit's short delay.
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(toastOf('The price was saved.')).toBeNull();
  });

  it('names the close button of a toast in the portal’s language', async () => {
    vi.useRealTimers();
    const i18n = createI18n('de');
    render(
      <I18nextProvider i18n={i18n}>
        <ChakraProvider value={defaultSystem}>
          <Toaster />
        </ChakraProvider>
      </I18nextProvider>,
    );
    act(() => showToast('success', '„Vertrag.pdf“ wurde hochgeladen.'));
    const toast = await screen.findByText('„Vertrag.pdf“ wurde hochgeladen.');
    const close = toast.closest<HTMLElement>('[data-part="root"]')?.querySelector('button');
    expect(close?.getAttribute('aria-label')).toBe(de.common.close);
    expect(close?.textContent).toBe('');
  });
});
