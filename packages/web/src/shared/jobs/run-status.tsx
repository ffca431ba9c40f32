/**
 * A run said the same way on every screen: its state in words and in the colour of its status (never
 * of its message), its duration, its failures with Microsoft's code beside the reason, and Microsoft
 * 365's throttling while the run waits for it.
 */
import { Badge, HStack, Progress, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { JobRun, RunState } from '@compliance-portal/sdk';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatBytes, formatDateTime, formatNumber } from '../../components/ui/format';
import { STATUS_PALETTE, WARNINGS_PALETTE } from '../../components/ui/status-badge';
import { runItems, totalWithKinds } from '../items-by-kind';

/** What a run is, in the words the screens use: its own state, with warnings set apart. */
export type RunShownState = RunState | 'finishedWithWarnings';

/** The run's own state; an older server's run (without `state`) read from its job status. */
function shownStateOf(run: JobRun): RunShownState {
  const state: RunState = run.state ?? (run.status === 'pending' ? (run.started ? 'stopped' : 'queued') : run.status);
  if (state === 'finished' && (run.itemsFailed > 0 || (run.warnings ?? 0) > 0)) return 'finishedWithWarnings';
  return state;
}

/** The colour of each state: the status's own, amber only for warnings. */
const STATE_PALETTE: Record<RunShownState, string> = {
  queued: STATUS_PALETTE.pending,
  running: STATUS_PALETTE.running,
  finished: STATUS_PALETTE.finished,
  finishedWithWarnings: WARNINGS_PALETTE,
  failed: STATUS_PALETTE.failed,
  stopped: STATUS_PALETTE.pending,
};

/** The colour a run's words are drawn in: red for a failure, amber for warnings or a wait, plain otherwise. */
function toneOf(run: JobRun): 'red' | 'orange' | 'gray' {
  const state = shownStateOf(run);
  if (state === 'failed') return 'red';
  if (state === 'finishedWithWarnings' || run.throttling?.waiting) return 'orange';
  return 'gray';
}

const timeFormat = new Map<string, Intl.DateTimeFormat>();
/** A time of day (14:02), in the interface language. */
function formatTime(iso: string | null | undefined, language: string): string {
  if (!iso) return '—';
  let format = timeFormat.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language, { timeStyle: 'short' });
    timeFormat.set(language, format);
  }
  return format.format(new Date(iso));
}

/** A duration in seconds, in words: "12 s", "4 min 5 s", "2 h 10 min", "3 d 4 h". */
export function formatDuration(seconds: number | null | undefined, t: TFunction): string {
  if (seconds === null || seconds === undefined) return '—';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return t('runs:duration.seconds', { s });
  if (s < 3600) return t('runs:duration.minutes', { m: Math.floor(s / 60), s: s % 60 });
  if (s < 86_400) return t('runs:duration.hours', { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
  return t('runs:duration.days', { d: Math.floor(s / 86_400), h: Math.floor((s % 86_400) / 3600) });
}

/** The run's duration: from its start to its end, or to now while it runs (the server's figure when it has one). */
export function durationOf(run: JobRun, now: number = Date.now()): number | null {
  if (run.durationSeconds !== undefined) return run.durationSeconds;
  if (!run.started) return null;
  const end = run.finished ? Date.parse(run.finished) : now;
  return Math.max(0, Math.round((end - Date.parse(run.started)) / 1000));
}

/**
 * The progress shown: 100 only for a finished run, at most 99 while it runs (the server computes it
 * from the work known to be left, progress.ts).
 */
function shownProgress(run: JobRun): number {
  const state = shownStateOf(run);
  if (state === 'finished' || state === 'finishedWithWarnings') return 100;
  return Math.min(99, Math.max(0, Math.floor(run.progress)));
}

/** A queued run: "Queued at 14:02"; any other: its progress bar and figure. */
export function RunProgress({ run, label, size = 'xs' }: { run: JobRun; label: string; size?: 'xs' | 'sm' }) {
  const { t, i18n } = useTranslation();
  if (shownStateOf(run) === 'queued') {
    return (
      <Text fontSize={size} color="fg.muted" data-testid="run-queued">
        {run.queuedAt ? t('runs:queuedAt', { time: formatTime(run.queuedAt, i18n.language) }) : '—'}
      </Text>
    );
  }
  const value = shownProgress(run);
  return (
    <HStack gap="2" minW="24" flex="1">
      <Progress.Root value={value} size={size} flex="1" aria-label={label}>
        <Progress.Track>
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
      <Text fontSize={size} data-testid="run-progress">
        {value}%
      </Text>
    </HStack>
  );
}

/** The run's state in words and its status's colour. */
export function RunStatusBadge({ run }: { run: JobRun }) {
  return <RunStateBadge state={shownStateOf(run)} />;
}

/** A run state in words and its status's colour (a job list's last run says it the same way). */
export function RunStateBadge({ state }: { state: RunShownState }) {
  const { t } = useTranslation();
  return (
    <Badge colorPalette={STATE_PALETTE[state]} variant="subtle" data-status={state}>
      {t(`runs:state.${state}`)}
    </Badge>
  );
}

/** While Microsoft 365 makes the run wait: why, the next try and the retries; afterwards, how long it waited. */
function throttleText(run: JobRun, t: TFunction, language: string): string | null {
  const throttling = run.throttling;
  if (!throttling || throttling.retries === 0) return null;
  const active = throttling.waiting && (run.status === 'running' || run.status === 'pending');
  if (active) {
    const kind = throttling.status === 429 ? 'limiting' : throttling.status === 0 ? 'unreachable' : 'unavailable';
    return t(`runs:throttle.${kind}`, {
      time: formatTime(throttling.nextTryAt, language),
      count: throttling.retries,
    });
  }
  // Retried at once (no wait asked for, or less than a second in all): "0 s in all" would say nothing.
  if (Math.round(throttling.waitedSeconds) < 1) return t('runs:throttle.retried', { count: throttling.retries });
  return t('runs:throttle.past', {
    count: throttling.retries,
    waited: formatDuration(throttling.waitedSeconds, t),
  });
}

/** The throttling note of a run (nothing when Microsoft 365 never made it wait). */
export function ThrottleNote({ run, size = 'sm' }: { run: JobRun; size?: 'xs' | 'sm' }) {
  const { t, i18n } = useTranslation();
  const text = throttleText(run, t, i18n.language);
  if (!text) return null;
  const waiting = run.throttling?.waiting && (run.status === 'running' || run.status === 'pending');
  return (
    <Text
      fontSize={size}
      colorPalette={waiting ? 'orange' : 'gray'}
      color={waiting ? 'colorPalette.fg' : 'fg.muted'}
      data-testid="run-throttling"
      role={waiting ? 'status' : undefined}
    >
      {text}
    </Text>
  );
}

/** Microsoft's code beside a reason: "ErrorAccessDenied (HTTP 403)". */
export function codeText(failure: { code?: string; status?: number }, t: TFunction): string | null {
  if (failure.code && failure.status !== undefined)
    return t('runs:failures.codeWithStatus', { code: failure.code, status: failure.status });
  if (failure.code) return failure.code;
  if (failure.status !== undefined) return t('runs:failures.httpStatus', { status: failure.status });
  return null;
}

/**
 * The cause of a failure Microsoft 365 answered with, where its HTTP status alone tells it: the same
 * sentence (in the interface language) the portal says elsewhere for that cause (the SDK's catalogue).
 * Microsoft's own words, in English, stay beside it.
 */
function causeOf(failure: { status?: number }): 'm365Throttled' | 'm365Outage' | undefined {
  if (failure.status === 429) return 'm365Throttled';
  if (failure.status !== undefined && failure.status >= 500) return 'm365Outage';
  return undefined;
}

/**
 * A failure's reason in words: the cause in the interface language and Microsoft's own words in
 * quotes where the status tells the cause, else the reason as recorded.
 */
export function reasonText(
  failure: { reason: string; status?: number },
  t: TFunction,
): {
  reason: string;
  said?: string;
} {
  const cause = causeOf(failure);
  if (!cause || !failure.reason) return { reason: failure.reason };
  return { reason: t(`apiErrors:${cause}`), said: t('runs:failures.said', { said: failure.reason }) };
}

/**
 * A failure on one line, for lists and exports: its reason (see reasonText), with Microsoft's words
 * when `said` is asked for, and the code in brackets.
 */
export function failureLine(
  failure: { reason: string; code?: string; status?: number },
  t: TFunction,
  { said: withSaid = false }: { said?: boolean } = {},
): string {
  const { reason, said } = reasonText(failure, t);
  const code = codeText(failure, t);
  return `${reason}${withSaid && said ? ` ${said}` : ''}${code ? ` (${code})` : ''}`;
}

/**
 * The run's message in the colour of its status: a failed run's reason in red with Microsoft's code
 * beside it, a finish with warnings in amber, any other message ("Finished.") plain.
 */
export function RunMessage({ run }: { run: JobRun }) {
  const { t } = useTranslation();
  const tone = toneOf(run);
  const failure = shownStateOf(run) === 'failed' ? (run.failure ?? { reason: run.message ?? '' }) : undefined;
  if (failure) {
    const code = codeText(failure, t);
    const { reason, said } = reasonText(failure, t);
    return (
      <Stack gap="1" fontSize="sm" data-testid="run-message" data-tone="red">
        <Text fontWeight="semibold">{t('runs:failures.reason')}</Text>
        <Text colorPalette="red" color="colorPalette.fg">
          {reason}
        </Text>
        {said ? <Text color="fg.muted">{said}</Text> : null}
        {code ? (
          <Text color="fg.muted">
            {t('runs:failures.code')}: <code>{code}</code>
          </Text>
        ) : null}
      </Stack>
    );
  }
  if (!run.message) return null;
  return (
    <Text
      fontSize="sm"
      colorPalette={tone}
      color={tone === 'gray' ? 'fg' : 'colorPalette.fg'}
      data-testid="run-message"
      data-tone={tone}
    >
      {run.message}
    </Text>
  );
}

/** How many failures the run had, never "0" for a failed run: its items, else its accounts, else that it failed. */
export function failuresText(run: JobRun, t: TFunction, language: string): string {
  if (run.itemsFailed > 0) return formatNumber(run.itemsFailed, language);
  if (shownStateOf(run) !== 'failed') return formatNumber(0, language);
  if ((run.accountsFailed ?? 0) > 0) return t('runs:failures.accounts', { count: run.accountsFailed ?? 0 });
  return t('runs:failures.runFailed');
}

/** When the run was queued, started and finished, how long it took, what it processed and how fast, what failed. */
export function RunFigures({ run }: { run: JobRun }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const duration = durationOf(run);
  const failed = shownStateOf(run) === 'failed';
  const rows: [string, string][] = [
    ...(run.queuedAt ? [[t('runs:figures.queued'), formatDateTime(run.queuedAt, lang)] as [string, string]] : []),
    [t('runs:figures.started'), run.started ? formatDateTime(run.started, lang) : t('runs:figures.notYet')],
    [t('runs:figures.finished'), run.finished ? formatDateTime(run.finished, lang) : t('runs:figures.notYet')],
    [t('runs:figures.duration'), formatDuration(duration, t)],
    [
      t('runs:figures.items'),
      run.itemsFound !== undefined && run.itemsFound > run.itemsProcessed && !run.finished
        ? t('runs:figures.itemsOfFound', {
            done: formatNumber(run.itemsProcessed, lang),
            found: formatNumber(run.itemsFound, lang),
          })
        : totalWithKinds(runItems(run), run.itemsByKind, t, lang),
    ],
    [t('runs:figures.size'), formatBytes(run.bytesProcessed, lang)],
    ...(run.itemsPerSecond !== undefined && run.itemsPerSecond !== null && duration
      ? [
          [
            t('runs:figures.throughput'),
            t('runs:figures.throughputValue', {
              items: formatNumber(run.itemsPerSecond, lang),
              bytes: formatBytes(run.bytesPerSecond ?? 0, lang),
            }),
          ] as [string, string],
        ]
      : []),
    ...(run.accountsTotal !== undefined && (failed || (run.accountsFailed ?? 0) > 0)
      ? [
          [
            t('runs:figures.failedAccounts'),
            t('runs:figures.failedAccountsValue', {
              failed: formatNumber(run.accountsFailed ?? 0, lang),
              total: formatNumber(run.accountsTotal, lang),
            }),
          ] as [string, string],
        ]
      : []),
    [t('runs:figures.failedItems'), failuresText(run, t, lang)],
  ];
  return (
    <SimpleGrid as="dl" columns={2} gap="2" fontSize="sm" data-testid="run-figures">
      {rows.map(([label, value]) => (
        <Figure key={label} label={label} value={value} />
      ))}
    </SimpleGrid>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <>
      <Text as="dt" color="fg.muted">
        {label}
      </Text>
      <Text as="dd" m="0" data-figure={label}>
        {value}
      </Text>
    </>
  );
}
