/**
 * How an area of the overview stands, read from its runs: the outcome of its newest run that ended
 * (failed, finished with warnings, fine), and its runs per day over the dashboard period.
 */
import type { JobRun, JobType } from '@compliance-portal/sdk';
import { STATUS_PALETTE, WARNINGS_PALETTE } from '../../components/ui/status-badge';

/** The overview's areas and the job type whose runs each one's figures count (as the server's overview). */
export const AREA_TYPES = {
  backup: 'backup',
  emailArchive: 'exchangeArchive',
  teamsArchive: 'teamsArchive',
  dataManagement: 'versionCleanup',
} as const satisfies Record<string, JobType>;
export type Area = keyof typeof AREA_TYPES;

/** What one run came to: ended (failed, with warnings, fine) or not yet (running, waiting). */
export type RunOutcome = 'failed' | 'warnings' | 'fine' | 'running' | 'pending';
/** An area: the outcome of its newest ended run, else of its newest run; `none` without a run. */
export type AreaHealth = RunOutcome | 'none';

/** Red, amber, green for ended runs; the job statuses' colours for the others. */
export const HEALTH_PALETTE: Record<AreaHealth, string> = {
  failed: STATUS_PALETTE.failed,
  warnings: WARNINGS_PALETTE,
  fine: STATUS_PALETTE.finished,
  running: STATUS_PALETTE.running,
  pending: STATUS_PALETTE.pending,
  none: 'gray',
};

/** A run that finished with items it could not process finished with warnings. */
function runOutcome(run: Pick<JobRun, 'status' | 'itemsFailed'>): RunOutcome {
  if (run.status === 'finished') return run.itemsFailed > 0 ? 'warnings' : 'fine';
  return run.status;
}

const ended = (run: JobRun) => run.status === 'finished' || run.status === 'failed';
const startOf = (run: JobRun) => run.started ?? run.finished ?? '';

/**
 * The newest run that ended decides: a running run says nothing yet of how the area stands. The
 * overview's last run comes first; the period's runs (newest first or not) find an ended one before it.
 */
export function areaHealth(lastJob: JobRun | null, runs: readonly JobRun[] = []): AreaHealth {
  if (lastJob && ended(lastJob)) return runOutcome(lastJob);
  const newestEnded = runs.filter(ended).sort((a, b) => startOf(b).localeCompare(startOf(a)))[0];
  if (newestEnded) return runOutcome(newestEnded);
  const newest = lastJob ?? [...runs].sort((a, b) => startOf(b).localeCompare(startOf(a)))[0];
  return newest ? runOutcome(newest) : 'none';
}

/** The outcomes a day's bar stacks, bottom up. */
export const DAY_OUTCOMES = ['fine', 'warnings', 'failed', 'running', 'pending'] as const satisfies RunOutcome[];

export interface RunDay {
  /** The local calendar day, YYYY-MM-DD. */
  date: string;
  runs: number;
  counts: Record<RunOutcome, number>;
}

function localDate(at: Date) {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/** Midnight (local time) `days - 1` days before today: where a `days`-day window of calendar days begins. */
export function periodStart(days: number, now: Date = new Date()) {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() - (days - 1));
}

/**
 * The runs of each of the last `days` calendar days (local time), oldest first, by the day each run
 * started; a run not started yet (queued) is in no day.
 */
export function runsPerDay(runs: readonly JobRun[], days: number, now: Date = new Date()): RunDay[] {
  const start = periodStart(days, now);
  const list: RunDay[] = Array.from({ length: days }, (_, i) => ({
    date: localDate(new Date(start.getFullYear(), start.getMonth(), start.getDate() + i)),
    runs: 0,
    counts: { fine: 0, warnings: 0, failed: 0, running: 0, pending: 0 },
  }));
  const byDate = new Map(list.map((day) => [day.date, day]));
  for (const run of runs) {
    if (!run.started) continue;
    const day = byDate.get(localDate(new Date(run.started)));
    if (!day) continue;
    day.runs += 1;
    day.counts[runOutcome(run)] += 1;
  }
  return list;
}
