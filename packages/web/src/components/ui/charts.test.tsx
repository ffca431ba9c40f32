import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { createI18n, loadLanguage } from '../../i18n';
import { AreaChart } from './charts';

async function renderChart(points: { x: string; y: number }[], language: 'en' | 'de' = 'en') {
  const i18n = createI18n(language);
  await loadLanguage(i18n, language);
  return render(
    <ChakraProvider value={defaultSystem}>
      <I18nextProvider i18n={i18n}>
        <AreaChart points={points} label="Stored size" title="Stored size per day" format={(y) => `${y} MB`} />
      </I18nextProvider>
    </ChakraProvider>,
  );
}

describe('an area chart', () => {
  it('names what it shows from its first to its last day, and has its values as a table', async () => {
    await renderChart([
      { x: 'Nov 1', y: 2 },
      { x: 'Nov 2', y: 5 },
      { x: 'Nov 3', y: 4 },
    ]);
    expect(screen.getByText('Stored size per day')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Stored size: Nov 1 2 MB – Nov 3 4 MB' })).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Stored size' });
    expect([...table.querySelectorAll('tbody tr')].map((row) => row.textContent)).toEqual([
      'Nov 12 MB',
      'Nov 25 MB',
      'Nov 34 MB',
    ]);
    expect(within(table).getByRole('columnheader', { name: 'Day' })).toBeTruthy();
  });

  it('says there is nothing to show instead of a flat line and a maximum of "1 B"', async () => {
    const { container } = await renderChart([
      { x: 'Nov 1', y: 0 },
      { x: 'Nov 2', y: 0 },
    ]);
    expect(screen.getByTestId('chart-empty').textContent).toBe('Nothing to show for this period yet.');
    expect(screen.queryByRole('img')).toBeNull();
    expect(container.textContent).not.toContain('MB');
  });

  it('says so in German too', async () => {
    await renderChart([], 'de');
    expect(screen.getByTestId('chart-empty').textContent).toBe('Für diesen Zeitraum gibt es noch nichts anzuzeigen.');
  });
});
