import { Box, HStack, Stack, Text } from '@chakra-ui/react';

/**
 * Small SVG charts: a filled line over days and horizontal bars. Each is an image with a text
 * alternative that states what it shows; the figures are also in the page as text.
 */

export function AreaChart({
  points,
  label,
  format,
  height = 160,
}: {
  points: { x: string; y: number }[];
  label: string;
  format: (y: number) => string;
  height?: number;
}) {
  const width = 600;
  const pad = { top: 10, bottom: 22, left: 4, right: 4 };
  const max = Math.max(1, ...points.map((p) => p.y));
  const step = points.length > 1 ? (width - pad.left - pad.right) / (points.length - 1) : 0;
  const xy = points.map((p, i) => [pad.left + i * step, pad.top + (1 - p.y / max) * (height - pad.top - pad.bottom)]);
  const line = xy.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${x?.toFixed(1)},${y?.toFixed(1)}`).join(' ');
  const base = height - pad.bottom;
  const area = xy.length ? `${line} L${xy.at(-1)?.[0]},${base} L${xy[0]?.[0]},${base} Z` : '';
  const first = points[0];
  const last = points.at(-1);
  return (
    <Box as="figure" m="0">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        height={height}
        preserveAspectRatio="none"
        role="img"
        aria-label={`${label}: ${first ? `${first.x} ${format(first.y)}` : ''} – ${last ? `${last.x} ${format(last.y)}` : ''}`}
      >
        <line x1={pad.left} x2={width - pad.right} y1={base} y2={base} stroke="currentColor" strokeOpacity="0.2" />
        {area ? <path d={area} fill="var(--chakra-colors-blue-500)" fillOpacity="0.15" /> : null}
        {line ? (
          <path
            d={line}
            fill="none"
            stroke="var(--chakra-colors-blue-600)"
            strokeWidth="2"
            vectorEffect="non-scaling-stroke"
          />
        ) : null}
      </svg>
      <HStack justify="space-between" fontSize="xs" color="fg.muted" aria-hidden="true">
        <Text>{first?.x}</Text>
        <Text>{format(max)}</Text>
        <Text>{last?.x}</Text>
      </HStack>
    </Box>
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
