import { Badge, Box, Flex, HStack, Link, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import { FLEET_AREAS, type FleetAttention, type FleetClient } from '@compliance-portal/sdk';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../components/ui/data-table';
import { formatBytes, formatDate, formatDateTime, formatNumber } from '../../components/ui/format';
import type { RowAction, RowActions } from '../../components/ui/row-actions';
import { relativeAge } from '../../offline/offline-banner';
import { useServerAction } from '../../offline/online';
import { issueTarget, issueText } from './fleet-issues';
import type { FleetSort } from './fleet-search';

/** The colour of each level of attention. */
export const ATTENTION_PALETTE: Record<FleetAttention, 'red' | 'orange' | 'green'> = {
  critical: 'red',
  warning: 'orange',
  ok: 'green',
};

const CONNECTION_PALETTE = { ok: 'green', failed: 'red', untested: 'orange', none: 'gray' } as const;

/** The coverage's kinds, in the order of the areas. */
const COVERAGE_KINDS = ['accounts', 'sites', 'teams', 'mailboxes'] as const;

/** "in 3 days" or "2 hours ago": relative to now, in the reader's language. */
function relativeTime(iso: string, now: number, language: string, justNow: string): string {
  return relativeAge(Math.max(0, now - Date.parse(iso)), language, justNow);
}

/** Bytes added (+) or removed (−) in words: "+1.2 GB", "−300 MB", or no change. */
function growthText(bytes: number, language: string, none: string): string {
  if (bytes === 0) return none;
  return `${bytes > 0 ? '+' : '−'}${formatBytes(Math.abs(bytes), language)}`;
}

/** A column of the fleet: its key is the sort the server knows it by. */
type FleetColumn = Column<FleetClient> & { key: FleetSort };

/** Opens a client on a page: sets its worker and goes there (the fleet page supplies it). */
export type OpenClient = (client: FleetClient, where: 'issue' | 'dashboard') => void;

/** The most urgent issue of a client as a button that opens the client where it is (or "nothing to do"). */
function AttentionCell({ client, now, onOpen }: { client: FleetClient; now: number; onOpen: OpenClient }) {
  const { t } = useTranslation();
  const serverAction = useServerAction();
  const [first, ...rest] = client.issues;
  return (
    // Inline where it stands under the client's name on a phone: the badge and the issue on one line.
    <Flex display="inline-flex" columnGap="2" rowGap="1" align="center" wrap="wrap" maxW="64" verticalAlign="middle">
      <Badge
        colorPalette={ATTENTION_PALETTE[client.attention]}
        variant={client.attention === 'critical' ? 'solid' : 'subtle'}
        data-attention={client.attention}
      >
        {t(`fleet:attention.${client.attention}`)}
      </Badge>
      {first ? (
        // A plain button, not Chakra's (a flex box that keeps its text on one line): the issue wraps in its cell.
        <Link asChild fontSize="xs" color="fg" textAlign="start" textUnderlineOffset="2px" variant="underline">
          <button
            type="button"
            aria-label={t('fleet:open.issueNamed', { issue: issueText(t, client, first, now), name: client.name })}
            onClick={() => onOpen(client, 'issue')}
            data-issue={first.code}
            {...serverAction}
          >
            {issueText(t, client, first, now)}
          </button>
        </Link>
      ) : (
        <Text fontSize="xs" color="fg.muted">
          {t('fleet:issues.none')}
        </Text>
      )}
      {rest.length > 0 ? (
        <Text fontSize="xs" color="fg.muted" title={rest.map((i) => issueText(t, client, i, now)).join('\n')}>
          {t('fleet:issues.more', { count: rest.length })}
        </Text>
      ) : null}
    </Flex>
  );
}

function RunsCell({ runs }: { runs: FleetClient['runs24h'] }) {
  const { t } = useTranslation();
  if (runs.failed === 0 && runs.warnings === 0)
    return (
      <Text as="span" color="fg.muted" whiteSpace="nowrap">
        {t('fleet:runs.none')}
      </Text>
    );
  return (
    <Flex as="span" display="inline-flex" columnGap="2" wrap="wrap" verticalAlign="middle">
      {runs.failed > 0 ? (
        <Text as="span" color="fg.error" fontWeight="medium" whiteSpace="nowrap">
          {t('fleet:runs.failed', { count: runs.failed })}
        </Text>
      ) : null}
      {runs.warnings > 0 ? (
        <Text as="span" whiteSpace="nowrap">
          {t('fleet:runs.warnings', { count: runs.warnings })}
        </Text>
      ) : null}
    </Flex>
  );
}

/** The last success of each of the five areas: short names and relative times, the exact time on hover and read out. */
function LastSuccessCell({ client, now, language }: { client: FleetClient; now: number; language: string }) {
  const { t } = useTranslation();
  const justNow = t('offline:justNow');
  return (
    <Box as="ul" listStyleType="none" m="0" p="0" fontSize="xs" minW="36">
      {FLEET_AREAS.map((area) => {
        const iso = client.lastSuccess[area];
        const long = t(`fleet:areas.${area}`);
        const relative = iso ? relativeTime(iso, now, language, justNow) : null;
        return (
          <Box
            as="li"
            key={area}
            display="flex"
            gap="2"
            justifyContent="space-between"
            whiteSpace="nowrap"
            data-area={area}
          >
            <Text as="span" aria-hidden="true" color="fg.muted" title={long}>
              {t(`fleet:areasShort.${area}`)}
            </Text>
            {iso && relative ? (
              <>
                <time aria-hidden="true" dateTime={iso} title={formatDateTime(iso, language)}>
                  {relative}
                </time>
                <VisuallyHidden>
                  {t('fleet:lastSuccess.at', { area: long, relative, time: formatDateTime(iso, language) })}
                </VisuallyHidden>
              </>
            ) : (
              <>
                <Text as="span" aria-hidden="true" color="fg.muted" fontStyle="italic">
                  {t('fleet:lastSuccess.never')}
                </Text>
                <VisuallyHidden>{t('fleet:lastSuccess.neverLong', { area: long })}</VisuallyHidden>
              </>
            )}
          </Box>
        );
      })}
    </Box>
  );
}

function CoverageCell({ client, language }: { client: FleetClient; language: string }) {
  const { t } = useTranslation();
  return (
    <Box as="ul" listStyleType="none" m="0" p="0" fontSize="xs" minW="28">
      {COVERAGE_KINDS.map((kind) => {
        const { protected: covered, found } = client.coverage[kind];
        const values = { protected: formatNumber(covered, language), found: formatNumber(found, language) };
        return (
          <Box as="li" key={kind} display="flex" gap="2" justifyContent="space-between" whiteSpace="nowrap">
            <Text as="span" aria-hidden="true" color="fg.muted">
              {t(`fleet:coverage.${kind}`)}
            </Text>
            <Text as="span" aria-hidden="true" color={covered < found ? 'fg.warning' : undefined}>
              {t('fleet:coverage.of', values)}
            </Text>
            <VisuallyHidden>
              {t('fleet:coverage.long', { kind: t(`fleet:coverage.${kind}`), ...values })}
            </VisuallyHidden>
          </Box>
        );
      })}
    </Box>
  );
}

/** The fleet's columns: each sorts on the server; the narrower the screen, the more stand under the client's name or in the Columns menu. */
export function useFleetColumns({
  current,
  now,
  onOpen,
}: {
  current: string | undefined;
  now: number;
  onOpen: OpenClient;
}): FleetColumn[] {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return [
    {
      key: 'name',
      header: t('fleet:columns.client'),
      sortable: true,
      cell: (c) => (
        <Stack gap="0" minW="36">
          <HStack gap="2" wrap="wrap">
            <Text fontWeight="medium">{c.name}</Text>
            {c.clientId === current ? (
              <Badge colorPalette="blue" size="sm">
                {t('fleet:current')}
              </Badge>
            ) : null}
          </HStack>
          <Text fontSize="xs" color="fg.muted" overflowWrap="break-word">
            {c.tenantDomain ?? t('fleet:noTenant')}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'attention',
      header: t('fleet:columns.attention'),
      sortable: true,
      cell: (c) => <AttentionCell client={c} now={now} onOpen={onOpen} />,
      hideBelow: 'sm',
      stack: true,
    },
    {
      key: 'failed24h',
      header: t('fleet:columns.runs24h'),
      sortable: true,
      cell: (c) => <RunsCell runs={c.runs24h} />,
      hideBelow: 'md',
      stack: true,
    },
    {
      key: 'failed7d',
      header: t('fleet:columns.runs7d'),
      sortable: true,
      cell: (c) => <RunsCell runs={c.runs7d} />,
      hideBelow: '2xl',
    },
    {
      key: 'lastSuccess',
      header: t('fleet:columns.lastSuccess'),
      sortable: true,
      cell: (c) => <LastSuccessCell client={c} now={now} language={lang} />,
      hideBelow: 'lg',
    },
    {
      key: 'coverage',
      header: t('fleet:columns.coverage'),
      sortable: true,
      cell: (c) => <CoverageCell client={c} language={lang} />,
      hideBelow: '2xl',
    },
    {
      key: 'storedBytes',
      header: t('fleet:columns.storedBytes'),
      sortable: true,
      align: 'end',
      cell: (c) => formatBytes(c.storedBytes, lang),
      hideBelow: 'xl',
    },
    {
      key: 'growth',
      header: t('fleet:columns.growth'),
      sortable: true,
      align: 'end',
      cell: (c) => growthText(c.growthBytes7d, lang, t('fleet:growth.none')),
      hideBelow: '2xl',
    },
    {
      key: 'license',
      header: t('fleet:columns.license'),
      sortable: true,
      cell: (c) => (
        <Flex display="inline-flex" columnGap="2" rowGap="0.5" align="center" wrap="wrap" verticalAlign="middle">
          <Badge colorPalette={c.license === 'trial' ? 'orange' : 'green'}>
            {t(`configuration:kinds.${c.license}`)}
          </Badge>
          <Text as="span" fontSize="xs" color="fg.muted">
            {c.licenseValidUntil
              ? t('fleet:licence.until', { date: formatDate(c.licenseValidUntil, lang) })
              : t('fleet:licence.noEnd')}
          </Text>
        </Flex>
      ),
      hideBelow: 'md',
      stack: true,
    },
    {
      key: 'connection',
      header: t('fleet:columns.connection'),
      sortable: true,
      cell: (c) => (
        <Badge
          colorPalette={CONNECTION_PALETTE[c.connection.state]}
          variant="subtle"
          title={
            c.connection.testedAt
              ? t('fleet:connection.testedAt', { time: formatDateTime(c.connection.testedAt, lang) })
              : undefined
          }
        >
          {t(`fleet:connection.${c.connection.state}`)}
        </Badge>
      ),
      hideBelow: 'md',
      stack: true,
    },
    {
      key: 'runningJobs',
      header: t('fleet:columns.runningJobs'),
      sortable: true,
      align: 'end',
      cell: (c) => formatNumber(c.runningJobs, lang),
      hideBelow: '2xl',
    },
  ];
}

/** What a row's first action is called: the page it opens. */
const OPEN_LABEL = {
  monitor: 'fleet:open.monitor',
  configuration: 'fleet:open.configuration',
  locations: 'fleet:open.locations',
  licence: 'fleet:open.licence',
  dashboard: 'fleet:open.dashboard',
} as const;

/**
 * A row's actions: first, opening the client where its most urgent issue is (the one that stays a
 * button when the others fold into More); then working as the client on its dashboard.
 */
export function fleetRowActions(
  t: TFunction,
  onOpen: OpenClient,
  server: { disabled?: boolean; title?: string; 'aria-describedby'?: string },
): RowActions<FleetClient> {
  const disabled = {
    disabled: !!server.disabled,
    ...(server.title ? { reason: server.title } : {}),
    ...(server['aria-describedby'] ? { describedBy: server['aria-describedby'] } : {}),
  };
  return {
    header: t('fleet:columns.actions'),
    rowLabel: (c) => c.name,
    actions: (c) => {
      const workAs: RowAction = {
        key: 'work-as',
        label: t('partner:workAs', { name: c.name }),
        onSelect: () => onOpen(c, 'dashboard'),
        ...disabled,
      };
      const first = c.issues[0];
      if (!first) return [{ ...workAs, palette: 'blue' }];
      const where = issueTarget(first).where;
      const label = t(OPEN_LABEL[where]);
      return [
        {
          key: 'open-issue',
          label,
          ariaLabel: t('fleet:open.named', { name: c.name, where: label }),
          palette: 'blue',
          onSelect: () => onOpen(c, 'issue'),
          ...disabled,
        },
        { ...workAs, quiet: true },
      ];
    },
  };
}
