import { Box, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../components/ui/format';
import { DAY_OUTCOMES, HEALTH_PALETTE, type RunDay } from './area-health';

const BAR = 4;
const GAP = 2;
const HEIGHT = 32;

/**
 * An area's runs per day as stacked bars, one per calendar day (fine at the bottom, then warnings,
 * failures and runs not ended), each day scaled to the area's busiest; the caption says the same in
 * words, so the bars carry no information of their own.
 */
export function RunSparkline({ days, testId }: { days: RunDay[]; testId?: string }) {
  const { t, i18n } = useTranslation();
  const total = (outcome: (typeof DAY_OUTCOMES)[number]) => days.reduce((n, d) => n + d.counts[outcome], 0);
  const runs = days.reduce((n, d) => n + d.runs, 0);
  if (runs === 0) {
    return (
      <Text fontSize="xs" color="fg.muted" data-testid={testId} data-runs="0">
        {t('overview:runs.none', { days: days.length })}
      </Text>
    );
  }
  const open = total('running') + total('pending');
  const max = Math.max(1, ...days.map((d) => d.runs));
  const width = days.length * (BAR + GAP) - GAP;
  return (
    <Box as="figure" m="0" data-testid={testId} data-runs={runs}>
      <svg
        viewBox={`0 0 ${width} ${HEIGHT}`}
        width="100%"
        height={HEIGHT}
        preserveAspectRatio="none"
        aria-hidden="true"
        focusable="false"
      >
        <line x1="0" x2={width} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} stroke="currentColor" strokeOpacity="0.2" />
        {days.map((day, i) => {
          let y = HEIGHT;
          return (
            <g key={day.date} data-date={day.date} data-runs={day.runs}>
              <title>
                {t('overview:runs.day', { date: formatDate(`${day.date}T12:00:00`, i18n.language), runs: day.runs })}
              </title>
              {DAY_OUTCOMES.map((outcome) => {
                const n = day.counts[outcome];
                if (n === 0) return null;
                const h = (n / max) * HEIGHT;
                y -= h;
                return (
                  <rect
                    key={outcome}
                    x={i * (BAR + GAP)}
                    y={y}
                    width={BAR}
                    height={h}
                    fill={`var(--chakra-colors-${HEALTH_PALETTE[outcome]}-solid)`}
                    data-outcome={outcome}
                    data-count={n}
                  />
                );
              })}
            </g>
          );
        })}
      </svg>
      <Text as="figcaption" fontSize="xs" color="fg.muted">
        {t('overview:runs.summary', {
          count: runs,
          days: days.length,
          failed: total('failed'),
          warnings: total('warnings'),
          fine: total('fine'),
        })}
        {open > 0 ? ` ${t('overview:runs.open', { count: open })}` : ''}
      </Text>
    </Box>
  );
}
