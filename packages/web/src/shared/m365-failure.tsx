import { Alert, Box, Button, chakra, HStack, List, Stack, Text } from '@chakra-ui/react';
import {
  ApiError,
  type Microsoft365Failure,
  microsoft365FailureOf,
  type PermissionArea,
  PortalError,
} from '@compliance-portal/sdk';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The rows of "Technical details", in the order support reads them: label key and value. */
type DetailRow = readonly [keyof typeof FIELD_ORDER, string];

const FIELD_ORDER = {
  cause: 0,
  status: 1,
  aadsts: 2,
  error: 3,
  requestId: 4,
  clientRequestId: 5,
  correlationId: 6,
  traceId: 7,
  timestamp: 8,
  retryAfter: 9,
  host: 10,
  permissions: 11,
  message: 12,
  portalStatus: 13,
  portalRequestId: 14,
} as const;

/** Microsoft's details and the portal's own request, as rows; only those known. */
function detailRows(failure: Microsoft365Failure | undefined, error: unknown): DetailRow[] {
  const rows: DetailRow[] = [];
  const add = (key: keyof typeof FIELD_ORDER, value: string | number | undefined) => {
    if (value !== undefined && value !== '') rows.push([key, String(value)]);
  };
  if (failure) {
    add('cause', failure.code);
    add('status', failure.status);
    add('aadsts', failure.aadsts);
    add('error', failure.error);
    add('requestId', failure.requestId);
    add('clientRequestId', failure.clientRequestId);
    add('correlationId', failure.correlationId);
    add('traceId', failure.traceId);
    add('timestamp', failure.timestamp);
    add('retryAfter', failure.retryAfter);
    add('host', failure.host);
    add('permissions', failure.missingPermissions?.map((m) => m.permission).join(', '));
    add('message', failure.message);
  }
  if (error instanceof ApiError) {
    add('portalStatus', error.status);
    add('portalRequestId', error.requestId);
  }
  return rows.sort((a, b) => FIELD_ORDER[a[0]] - FIELD_ORDER[b[0]]);
}

/**
 * A failure to read Microsoft 365 where it happened: what could not be done (`title`, the screen's
 * own words), the cause with the one action that fixes it (the SDK's catalogue, in the user's
 * language), what names it further (the permission missing and who needs it, how long Microsoft asks
 * to wait, the address not reached), and Microsoft's ids for support under "Technical details", with
 * "Copy details" to put them on the clipboard. Takes the cause from an answer (`failure`, as the
 * connection test gives it) or from a failed call (`error`); a failure that is not Microsoft 365's is
 * said in the catalogue's words for it.
 */
export function M365FailureAlert({
  title,
  error,
  failure: given,
  onRetry,
}: {
  title: string;
  error?: unknown;
  failure?: Microsoft365Failure | undefined;
  onRetry?: () => void;
}) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const [open, setOpen] = useState(false);
  const failure = given ?? microsoft365FailureOf(error);
  const cause = failure
    ? t(`apiErrors:${failure.code}`)
    : t(`apiErrors:${error instanceof PortalError ? error.messageKey : 'unknown'}`);
  const areas = new Intl.ListFormat(i18n.language, { type: 'conjunction' });
  const areaName = (a: PermissionArea) => t(`configuration:missingPermissions.areas.${a}`);
  const rows = detailRows(failure, error);
  const retryAfter = failure?.code === 'm365Throttled' ? failure.retryAfter : undefined;
  // The address matters where it was not resolved or reached, or its certificate not trusted.
  const host =
    failure?.code === 'm365HostNotFound' || failure?.code === 'm365Unreachable' || failure?.code === 'm365TlsFailed'
      ? failure.host
      : undefined;

  const copyDetails = async () => {
    const text = [
      `${t('m365:copyTitle')}: ${title}`,
      cause,
      ...rows.map(([key, value]) => `${t(`m365:fields.${key}`)}: ${value}`),
    ].join('\n');
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(text);
      setCopy('copied');
    } catch {
      // A page without clipboard access (plain http on another host): the details are there to select.
      setCopy('failed');
      setOpen(true);
    }
  };

  return (
    <Alert.Root
      status="error"
      role="alert"
      aria-labelledby={titleId}
      data-testid="m365-failure"
      data-cause={failure?.code ?? 'none'}
    >
      <Alert.Indicator />
      <Alert.Content minW="0" gap="2">
        <Alert.Title id={titleId} data-testid="m365-title" fontWeight="semibold">
          {title}
        </Alert.Title>
        <Alert.Description data-testid="m365-cause">{cause}</Alert.Description>
        {failure?.missingPermissions?.length ? (
          <List.Root as="ul" ps="5" gap="1" fontSize="sm">
            {failure.missingPermissions.map((m) => (
              <List.Item key={m.permission} overflowWrap="anywhere">
                {t('m365:missing', { permission: m.permission, areas: areas.format(m.areas.map(areaName)) })}
              </List.Item>
            ))}
          </List.Root>
        ) : null}
        {retryAfter !== undefined ? (
          <Text fontSize="sm">
            {retryAfter >= 120
              ? t('m365:waitMinutes', { count: Math.ceil(retryAfter / 60) })
              : t('m365:wait', { count: retryAfter })}
          </Text>
        ) : null}
        {host ? (
          <Text fontSize="sm" overflowWrap="anywhere">
            {t('m365:address', { host })}
          </Text>
        ) : null}
        <HStack gap="2" wrap="wrap">
          {onRetry ? (
            <Button size="sm" variant="outline" onClick={onRetry}>
              {t('common:retry')}
            </Button>
          ) : null}
          {rows.length > 0 ? (
            <Button size="sm" variant="outline" onClick={() => void copyDetails()}>
              {t('m365:copy')}
            </Button>
          ) : null}
          <Text role="status" fontSize="sm" data-testid="m365-copy-status">
            {copy === 'copied' ? t('m365:copied') : copy === 'failed' ? t('m365:copyFailed') : ''}
          </Text>
        </HStack>
        {rows.length > 0 ? (
          <chakra.details
            open={open}
            onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}
            fontSize="sm"
          >
            <chakra.summary cursor="pointer" fontWeight="medium">
              {t('m365:details')}
            </chakra.summary>
            <Box as="dl" mt="2" display="grid" gridTemplateColumns={{ base: '1fr', sm: 'auto 1fr' }} columnGap="3">
              {rows.map(([key, value]) => (
                <Stack key={key} gap="0" display="contents">
                  <chakra.dt color="fg.muted">{t(`m365:fields.${key}`)}</chakra.dt>
                  <chakra.dd
                    ms="0"
                    mb={{ base: '1', sm: '0' }}
                    // Ids and codes as they are typed; Microsoft's message as prose.
                    fontFamily={key === 'message' ? undefined : 'mono'}
                    overflowWrap="anywhere"
                  >
                    {value}
                  </chakra.dd>
                </Stack>
              ))}
            </Box>
          </chakra.details>
        ) : null}
      </Alert.Content>
    </Alert.Root>
  );
}
