import { Chart, useChart } from '@chakra-ui/charts';
import { Box, HStack, Stack, Table, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Area, CartesianGrid, AreaChart as RechartsArea, Tooltip, XAxis, YAxis } from 'recharts';

/**
 * Charts of the dashboards, on Chakra UI's charts (Recharts): a filled line over days with its axes in
 * its unit, its values on hover, its title; and horizontal bars. Each chart is one image with a text
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
          <Box as="details" fontSize="xs" color="fg.muted">
            <Box as="summary" cursor="pointer" width="fit-content">
              {t('common:chartTable')}
            </Box>
            <Table.Root size="sm" mt="1" aria-label={label}>
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>{t('common:chartDate')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{label}</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {points.map((p) => (
                  <Table.Row key={p.x}>
                    <Table.Cell>{p.x}</Table.Cell>
                    <Table.Cell textAlign="end">{format(p.y)}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Box>
        </>
      )}
    </Stack>
  );
}

export function BarList({
  bars,
  label,
}: {
  bars: { key: string; label: string; value: number; palette: string }[];
  label: string;
}) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  return (
    <Stack gap="2" as="figure" m="0" aria-label={label} role="group">
      {bars.map((b) => (
        <HStack key={b.key} gap="3">
          <Text fontSize="sm" w="24" flexShrink={0}>
            {b.label}
          </Text>
          <Box flex="1" bg="bg.muted" borderRadius="sm" h="3" aria-hidden="true">
            <Box bg={`${b.palette}.solid`} h="3" borderRadius="sm" w={`${(b.value / max) * 100}%`} />
          </Box>
          <Text fontSize="sm" w="10" textAlign="end" fontVariantNumeric="tabular-nums" data-testid={`bar-${b.key}`}>
            {b.value}
          </Text>
        </HStack>
      ))}
    </Stack>
  );
}
