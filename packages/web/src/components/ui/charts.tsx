import { BarList as ChakraBarList, Chart, useChart } from '@chakra-ui/charts';
import { Box, Stack, Table, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Area, CartesianGrid, AreaChart as RechartsArea, Tooltip, XAxis, YAxis } from 'recharts';

/**
 * Charts of the dashboards, on Chakra UI's charts (Recharts): a filled line over days with its axes in
 * its unit, its values on hover, its title; and horizontal bars with their values in their unit. Each chart is one image with a text
 * alternative that states what it shows, and its values as a table behind it, opened by keyboard too
 * (Recharts' own keyboard layer stays off: focusable content inside an image is hidden from screen
 * readers). A chart with nothing to show says so instead of drawing a flat line.
 */

export interface AreaChartProps {
  points: { x: string; y: number }[];
  /** What the chart shows: its accessible name, its tooltip's series name and, with no title, its legend. */
  label: string;
  /** A value in its unit ("3.5 MB", "1,234"). */
  format: (y: number) => string;
  /** The chart's own height in px (the axes included). */
  height?: number;
  /** A visible title above the chart, when the card's heading does not already say what it shows. */
  title?: string;
}

export function AreaChart({ points, label, format, height = 180, title }: AreaChartProps) {
  const { t } = useTranslation();
  const chart = useChart({ data: points, series: [{ name: 'y', color: 'blue.solid', label }] });
  const empty = points.length === 0 || points.every((p) => p.y === 0);
  const first = points[0];
  const last = points.at(-1);
  return (
    <Stack as="figure" m="0" gap="1" data-testid="area-chart">
      {title ? (
        <Text as="figcaption" fontSize="sm" fontWeight="medium">
          {title}
        </Text>
      ) : null}
      {empty ? (
        <Text fontSize="sm" color="fg.muted" py="4" data-testid="chart-empty">
          {t('common:chartEmpty')}
        </Text>
      ) : (
        <>
          <Box
            role="img"
            aria-label={`${label}: ${first ? `${first.x} ${format(first.y)}` : ''} – ${last ? `${last.x} ${format(last.y)}` : ''}`}
          >
            <Chart.Root chart={chart} aspectRatio="auto" height={`${height}px`}>
              <RechartsArea
                data={chart.data}
                margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
                responsive
                accessibilityLayer={false}
              >
                <CartesianGrid stroke={chart.color('border.muted')} vertical={false} />
                <XAxis dataKey={chart.key('x')} tickLine={false} axisLine={false} minTickGap={24} tickMargin={6} />
                <YAxis
                  tickLine={false}
                  axisLine={false}
                  width={76}
                  allowDecimals={false}
                  domain={[0, 'auto']}
                  tickFormatter={format}
                />
                <Tooltip
                  cursor={{ stroke: chart.color('border') }}
                  animationDuration={0}
                  content={<Chart.Tooltip formatter={(value: number) => format(value)} />}
                />
                {chart.series.map((item) => (
                  <Area
                    key={item.name}
                    isAnimationActive={false}
                    dataKey={chart.key(item.name)}
                    name={label}
                    fill={chart.color(item.color)}
                    fillOpacity={0.15}
                    stroke={chart.color(item.color)}
                    strokeWidth={2}
                  />
                ))}
              </RechartsArea>
            </Chart.Root>
          </Box>
          <ValuesTable
            label={label}
            first={t('common:chartDate')}
            rows={points.map((p) => ({ key: p.x, name: p.x, value: format(p.y) }))}
          />
        </>
      )}
    </Stack>
  );
}

export interface BarListProps {
  /** One bar each, in this order; `palette` is a colour palette (a job status's: green, red, …). */
  bars: { key: string; label: string; value: number; palette: string }[];
  /** What the bars show: the accessible name of the chart and of its values table. */
  label: string;
  /** A value in its unit ("7 runs"); without one, the number in the page's language. */
  format?: (value: number) => string;
  /** The heading of the values table's first column (what each bar is); "Item" unless given. */
  category?: string;
}

/**
 * Horizontal bars on Chakra UI's BarList: each bar's name on it, its value in its unit beside it. The
 * bars are one image named by the chart's label and every bar's value, with the values as a table
 * behind it; all zero, it says there is nothing to show.
 */
export function BarList({ bars, label, format, category }: BarListProps) {
  const { t, i18n } = useTranslation();
  const show = format ?? ((value: number) => value.toLocaleString(i18n.language));
  // One series for every bar: its colour is each bar's own, set on the bar's row below.
  const chart = useChart<ChakraBarList.Data>({
    data: bars.map((b) => ({ name: b.label, value: b.value })),
    series: [{ name: 'name', color: 'var(--bar-colour)' }],
  });
  const colours = Object.fromEntries(
    bars.map((b, i) => [`& > :nth-of-type(${i + 1})`, { '--bar-colour': chart.color(`${b.palette}.muted`) }]),
  );
  const empty = bars.every((b) => b.value === 0);
  return (
    <Stack as="figure" m="0" gap="1" data-testid="bar-list">
      {empty ? (
        <Text fontSize="sm" color="fg.muted" py="4" data-testid="chart-empty">
          {t('common:chartEmpty')}
        </Text>
      ) : (
        <>
          <Box role="img" aria-label={`${label}: ${bars.map((b) => `${b.label} ${show(b.value)}`).join(', ')}`}>
            <ChakraBarList.Root chart={chart} barSize="7">
              <ChakraBarList.Content gap="3">
                <ChakraBarList.Bar gap="1.5" css={colours} />
                <ChakraBarList.Value gap="1.5" valueFormatter={show} fontVariantNumeric="tabular-nums" />
              </ChakraBarList.Content>
            </ChakraBarList.Root>
          </Box>
          <ValuesTable
            label={label}
            first={category ?? t('common:chartCategory')}
            rows={bars.map((b) => ({ key: b.key, name: b.label, value: show(b.value), testId: `bar-${b.key}` }))}
          />
        </>
      )}
    </Stack>
  );
}

/** The values behind a chart, as a table a screen reader and a keyboard reach (folded under a summary). */
function ValuesTable({
  label,
  first,
  rows,
}: {
  label: string;
  first: string;
  rows: { key: string; name: string; value: string; testId?: string }[];
}) {
  const { t } = useTranslation();
  return (
    <Box as="details" fontSize="xs" color="fg.muted">
      <Box as="summary" cursor="pointer" width="fit-content">
        {t('common:chartTable')}
      </Box>
      <Table.Root size="sm" mt="1" aria-label={label}>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>{first}</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">{label}</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((r) => (
            <Table.Row key={r.key}>
              <Table.Cell>{r.name}</Table.Cell>
              <Table.Cell textAlign="end" data-testid={r.testId}>
                {r.value}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Box>
  );
}
