import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { createI18n, loadLanguage } from '../../i18n';
import { AreaChart, BarList, type BarListProps } from './charts';

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

async function renderBars(bars: BarListProps['bars'], language: 'en' | 'de' = 'en', props: Partial<BarListProps> = {}) {
  const i18n = createI18n(language);
  await loadLanguage(i18n, language);
  return render(
    <ChakraProvider value={defaultSystem}>
      <I18nextProvider i18n={i18n}>
        <BarList bars={bars} label="Job runs by status" {...props} />
      </I18nextProvider>
    </ChakraProvider>,
  );
}

const RUNS: BarListProps['bars'] = [
  { key: 'finished', label: 'Finished', value: 1234, palette: 'green' },
  { key: 'failed', label: 'Failed', value: 2, palette: 'red' },
  { key: 'pending', label: 'Pending', value: 0, palette: 'gray' },
];

describe('a bar list', () => {
  it('draws a bar for each, in order, with its value in its unit, named as one image', async () => {
    await renderBars(RUNS, 'en', { format: (n) => `${n.toLocaleString('en')} runs`, category: 'Status' });
    const image = screen.getByRole('img', {
      name: 'Job runs by status: Finished 1,234 runs, Failed 2 runs, Pending 0 runs',
    });
    // Chakra's bar list: the names on the bars, the values beside them.
    expect(image.textContent).toBe('FinishedFailedPending1,234 runs2 runs0 runs');
    const table = screen.getByRole('table', { name: 'Job runs by status' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Status', 'Job runs by status']);
    expect([...table.querySelectorAll('tbody tr')].map((row) => row.textContent)).toEqual([
      'Finished1,234 runs',
      'Failed2 runs',
      'Pending0 runs',
    ]);
    expect(screen.getByTestId('bar-failed').textContent).toBe('2 runs');
  });

  it('colours each bar in its own palette, longest for the largest value', async () => {
    await renderBars(RUNS);
    const bars = [...screen.getByRole('img').querySelectorAll<HTMLElement>('[style*="--bar-width"]')];
    expect(bars.map((bar) => bar.style.getPropertyValue('--bar-width'))).toEqual([
      '100%',
      `${(2 / 1234) * 100}%`,
      '0%',
    ]);
    const rows = bars.map((bar) => bar.parentElement?.parentElement as HTMLElement);
    expect(rows.map((row) => getComputedStyle(row).getPropertyValue('--bar-colour'))).toEqual([
      'var(--chakra-colors-green-muted)',
      'var(--chakra-colors-red-muted)',
      'var(--chakra-colors-gray-muted)',
    ]);
  });

  it('writes the numbers in the page’s language without a unit', async () => {
    await renderBars(RUNS, 'de');
    expect(screen.getByRole('img').getAttribute('aria-label')).toBe(
      'Job runs by status: Finished 1.234, Failed 2, Pending 0',
    );
    expect(screen.getByRole('table').querySelector('th')?.textContent).toBe('Eintrag');
  });

  it('says there is nothing to show when every value is 0, in English and German', async () => {
    const zero = RUNS.map((bar) => ({ ...bar, value: 0 }));
    const { unmount } = await renderBars(zero);
    expect(screen.getByTestId('chart-empty').textContent).toBe('Nothing to show for this period yet.');
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
    unmount();
    await renderBars([], 'de');
    expect(screen.getByTestId('chart-empty').textContent).toBe('Für diesen Zeitraum gibt es noch nichts anzuzeigen.');
  });
});
