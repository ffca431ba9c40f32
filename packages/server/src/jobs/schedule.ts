/**
 * When a job runs next: daily, weekly, monthly, quarterly, a specific
 * date, days of the week, at chosen hours, or once right after creation. Computed in the
 * recurrence's time zone (else the organisation's, else UTC), so 02:00 stays 02:00 across DST.
 */
import type { Recurrence } from '@compliance-portal/sdk';

const DAY_MS = 86_400_000;

interface LocalDate {
  year: number;
  month: number; // 1-12
  day: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True when the runtime knows the IANA zone. */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock fields of an instant in a zone. */
function localParts(at: Date, timeZone: string) {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(at)
      .filter((p) => p.type !== 'literal')
      .map((p) => [p.type, Number(p.value)]),
  ) as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>;
  return parts;
}

/** The zone's offset from UTC at an instant, in ms (positive east of Greenwich). */
function offsetAt(at: number, timeZone: string): number {
  const p = localParts(new Date(at), timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(at / 1000) * 1000;
}

/**
 * The instant of a wall-clock time in a zone. A time skipped by a DST jump moves forward with the
 * jump (02:30 on a spring-forward night runs at 03:30); a repeated time takes its first occurrence.
 */
export function zonedTime(date: LocalDate, hour: number, timeZone: string): Date {
  const wall = Date.UTC(date.year, date.month - 1, date.day, hour);
  // The offsets in force around that day: before and after a DST change, if there is one.
  const candidates = [...new Set([-12, 0, 12].map((h) => wall - offsetAt(wall + h * 3_600_000, timeZone)))].sort(
    (a, b) => a - b,
  );
  const wallOf = (at: number) => {
    const p = localParts(new Date(at), timeZone);
    return Date.UTC(p.year, p.month - 1, p.day, p.hour);
  };
  const exact = candidates.find((c) => wallOf(c) === wall);
  if (exact !== undefined) return new Date(exact);
  const later = candidates.find((c) => wallOf(c) > wall);
  return new Date(later ?? wall);
}

function addDays(d: LocalDate, days: number): LocalDate {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day) + days * DAY_MS);
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

function weekday(d: LocalDate): number {
  return new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Does the recurrence run on this local day? `anchor` is the local day the job was created. */
function runsOn(recurrence: Recurrence, d: LocalDate, anchor: LocalDate): boolean {
  switch (recurrence.kind) {
    case 'daily':
      return true;
    case 'weekly':
      return weekday(d) === (recurrence.daysOfWeek?.[0] ?? weekday(anchor));
    case 'daysOfWeek':
      return (recurrence.daysOfWeek ?? []).includes(weekday(d));
    case 'monthly':
    case 'quarterly': {
      if (recurrence.kind === 'quarterly' && (d.month - 1) % 3 !== 0) return false;
      // The 31st runs on the last day of shorter months.
      const wanted = Math.min(recurrence.dayOfMonth ?? 1, daysInMonth(d.year, d.month));
      return d.day === wanted;
    }
    default:
      return false;
  }
}

/** Hours of the day, sorted; midnight when none are chosen. */
function hoursOf(recurrence: Recurrence): number[] {
  const hours = recurrence.hours && recurrence.hours.length > 0 ? recurrence.hours : [0];
  return [...new Set(hours)].sort((a, b) => a - b);
}

export interface NextRunInput {
  recurrence: Recurrence | null;
  /** The first instant strictly after which the next run falls. */
  after: Date;
  /** When the job was created: weekly jobs keep its weekday. */
  createdAt: Date;
  /** The organisation's zone, used when the recurrence names none. */
  organisationTimeZone?: string;
}

/** The next scheduled run after `after`, or null when the job has no further scheduled run. */
export function nextRun({ recurrence, after, createdAt, organisationTimeZone }: NextRunInput): Date | null {
  if (!recurrence) return null;
  if (recurrence.kind === 'afterCreation') return null;
  if (recurrence.kind === 'specificDate') {
    const at = recurrence.date ? new Date(recurrence.date) : null;
    return at && at.getTime() > after.getTime() ? at : null;
  }
  const timeZone = recurrence.timeZone ?? organisationTimeZone ?? 'UTC';
  const start = localParts(after, timeZone);
  const anchorParts = localParts(createdAt, timeZone);
  const anchor = { year: anchorParts.year, month: anchorParts.month, day: anchorParts.day };
  let day: LocalDate = { year: start.year, month: start.month, day: start.day };
  const hours = hoursOf(recurrence);
  // Quarterly is the sparsest: a match within 370 days always exists.
  for (let i = 0; i < 370; i++, day = addDays(day, 1)) {
    if (!runsOn(recurrence, day, anchor)) continue;
    for (const hour of hours) {
      const at = zonedTime(day, hour, timeZone);
      if (at.getTime() > after.getTime()) return at;
    }
  }
  return null;
}
