/**
 * Says that the portal is offline, how old the data on the screen is, and why actions are disabled;
 * and, for a moment, that the connection is back and the data refreshes.
 */
import { Box, HStack, Text } from '@chakra-ui/react';
import { type Query, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OFFLINE_REASON_ID, useOnline } from './online';

const BACK_ONLINE_MS = 5000;
const AGE_REFRESH_MS = 30_000;

/** "5 minutes ago", "vor 2 Stunden": the largest unit that fits. */
export function relativeAge(ms: number, language: string, justNow: string): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 45) return justNow;
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['day', 86_400],
    ['hour', 3600],
    ['minute', 60],
  ];
  for (const [unit, size] of units) {
    if (seconds >= size || unit === 'minute') return format.format(-Math.max(1, Math.round(seconds / size)), unit);
  }
  return justNow;
}

interface ScreenData {
  /** When the oldest data on the screen was fetched; null when nothing is shown. */
  oldest: number | null;
  /** A query on the screen waits for the network with nothing to show. */
  missing: boolean;
}

function screenData(queries: Query[]): ScreenData {
  let oldest: number | null = null;
  let missing = false;
  for (const query of queries) {
    if (query.state.data !== undefined && query.state.dataUpdatedAt > 0) {
      oldest = oldest === null ? query.state.dataUpdatedAt : Math.min(oldest, query.state.dataUpdatedAt);
    } else if (query.state.fetchStatus === 'paused' || query.state.status === 'error') {
      missing = true;
    }
  }
  return { oldest, missing };
}

export function OfflineBanner() {
  const online = useOnline();
  const { t, i18n } = useTranslation('offline');
  const queryClient = useQueryClient();
  const [data, setData] = useState<ScreenData>({ oldest: null, missing: false });
  const [now, setNow] = useState(() => Date.now());
  const [backOnline, setBackOnline] = useState(false);
  const wasOffline = useRef(!online);

  useEffect(() => {
    if (online) {
      if (!wasOffline.current) return;
      wasOffline.current = false;
      setBackOnline(true);
      const timer = setTimeout(() => setBackOnline(false), BACK_ONLINE_MS);
      return () => clearTimeout(timer);
    }
    wasOffline.current = true;
    setBackOnline(false);
    const cache = queryClient.getQueryCache();
    const update = () => {
      setData(screenData(cache.findAll({ type: 'active' })));
      setNow(Date.now());
    };
    update();
    const unsubscribe = cache.subscribe(update);
    const timer = setInterval(update, AGE_REFRESH_MS);
    return () => {
      unsubscribe();
      clearInterval(timer);
    };
  }, [online, queryClient]);

  if (online) {
    if (!backOnline) return null;
    return (
      <Box as="aside" aria-label={t('back')} bg="green.subtle" color="fg" px="4" py="2" data-testid="online-again">
        <Text role="status" textStyle="sm">
          {t('back')}
        </Text>
      </Box>
    );
  }
  const age = data.oldest === null ? null : relativeAge(Math.max(0, now - data.oldest), i18n.language, t('justNow'));
  return (
    <Box
      as="aside"
      aria-label={t('banner')}
      bg="orange.subtle"
      color="fg"
      borderBottomWidth="1px"
      borderColor="orange.muted"
      px="4"
      py="2"
      data-testid="offline-banner"
    >
      <HStack gap="2" flexWrap="wrap" role="status">
        <Text fontWeight="semibold" textStyle="sm">
          {t('banner')}
        </Text>
        {age ? (
          <Text
            textStyle="sm"
            data-testid="offline-age"
            title={new Date(data.oldest ?? 0).toLocaleString(i18n.language)}
          >
            {t('shownSaved', { age })}
          </Text>
        ) : null}
        {data.missing ? (
          <Text textStyle="sm" data-testid="offline-missing">
            {age ? t('partlySaved') : t('nothingSaved')}
          </Text>
        ) : null}
        <Text textStyle="sm" id={OFFLINE_REASON_ID}>
          {t('actionsDisabled')}
        </Text>
      </HStack>
    </Box>
  );
}
