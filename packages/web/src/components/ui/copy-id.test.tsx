import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import { createI18n, loadLanguage } from '../../i18n';
import { CopyId } from './copy-id';

describe('an id copied on demand', () => {
  it('is not shown as text; its button says what it copies and answers "Copied"', async () => {
    const i18n = createI18n('en');
    await loadLanguage(i18n, 'en');
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue();
    const id = '7a1c6c3e-0b9e-4f7d-9a51-1c0e5d6b2a01';
    const { container } = render(
      <ChakraProvider value={defaultSystem}>
        <I18nextProvider i18n={i18n}>
          <CopyId value={id} what="Tenant ID Contoso" />
        </I18nextProvider>
      </ChakraProvider>,
    );
    expect(container.textContent).not.toContain(id);
    await user.click(screen.getByRole('button', { name: 'Copy: Tenant ID Contoso' }));
    expect(writeText).toHaveBeenCalledWith(id);
    expect(await screen.findByText('Copied')).toBeTruthy();
  });
});
