import { describe, expect, it } from 'vitest';
import { nextRun, zonedTime } from '../src/jobs/schedule.js';

const created = new Date('2026-11-02T09:15:00Z'); // a Monday

function next(recurrence: Parameters<typeof nextRun>[0]['recurrence'], after: string, organisationTimeZone?: string) {
  return nextRun({ recurrence, after: new Date(after), createdAt: created, organisationTimeZone })?.toISOString();
}

describe('next run', () => {
  it('runs daily at the chosen hours, in the organisation time zone', () => {
    const daily = { kind: 'daily' as const, hours: [22, 2] };
    expect(next(daily, '2026-11-02T09:15:00Z', 'Europe/Berlin')).toBe('2026-11-02T21:00:00.000Z');
    expect(next(daily, '2026-11-02T21:00:00Z', 'Europe/Berlin')).toBe('2026-11-03T01:00:00.000Z');
    expect(next(daily, '2026-11-02T09:15:00Z')).toBe('2026-11-02T22:00:00.000Z');
    expect(next({ ...daily, timeZone: 'America/New_York' }, '2026-11-02T09:15:00Z', 'Europe/Berlin')).toBe(
      '2026-11-03T03:00:00.000Z',
    );
  });

  it('keeps the wall-clock hour across daylight saving changes', () => {
    const at2 = { kind: 'daily' as const, hours: [2], timeZone: 'Europe/Berlin' };
    // Summer (CEST, +2) then winter (CET, +1).
    expect(next(at2, '2026-10-24T12:00:00Z')).toBe('2026-10-25T00:00:00.000Z');
    expect(next(at2, '2026-10-25T12:00:00Z')).toBe('2026-10-26T01:00:00.000Z');
    // 02:00 does not exist on 29 March 2026: the run moves to 03:00 CEST.
    expect(next(at2, '2026-03-28T12:00:00Z')).toBe('2026-03-29T01:00:00.000Z');
    expect(zonedTime({ year: 2026, month: 3, day: 29 }, 2, 'Europe/Berlin').toISOString()).toBe(
      '2026-03-29T01:00:00.000Z',
    );
  });

  it('runs weekly on the creation weekday, or on the chosen days of the week', () => {
    expect(next({ kind: 'weekly', hours: [1] }, '2026-11-02T09:15:00Z')).toBe('2026-11-09T01:00:00.000Z');
    expect(next({ kind: 'weekly', hours: [1], daysOfWeek: [5] }, '2026-11-02T09:15:00Z')).toBe(
      '2026-11-06T01:00:00.000Z',
    );
    const weekend = { kind: 'daysOfWeek' as const, daysOfWeek: [0, 6], hours: [3] };
    expect(next(weekend, '2026-11-02T09:15:00Z')).toBe('2026-11-07T03:00:00.000Z');
    expect(next(weekend, '2026-11-07T03:00:00Z')).toBe('2026-11-08T03:00:00.000Z');
  });

  it('runs monthly and quarterly on the day of the month, the 31st on the last day of short months', () => {
    expect(next({ kind: 'monthly', dayOfMonth: 31, hours: [4] }, '2026-11-02T00:00:00Z')).toBe(
      '2026-11-30T04:00:00.000Z',
    );
    expect(next({ kind: 'monthly', dayOfMonth: 31, hours: [4] }, '2026-11-30T04:00:00Z')).toBe(
      '2026-12-31T04:00:00.000Z',
    );
    expect(next({ kind: 'quarterly', dayOfMonth: 15, hours: [0] }, '2026-11-02T00:00:00Z')).toBe(
      '2027-01-15T00:00:00.000Z',
    );
  });

  it('runs a specific date once, and a job started after creation has no schedule', () => {
    const once = { kind: 'specificDate' as const, date: '2026-12-24T18:00:00.000Z' };
    expect(next(once, '2026-11-02T00:00:00Z')).toBe('2026-12-24T18:00:00.000Z');
    expect(next(once, '2026-12-24T18:00:00Z')).toBeUndefined();
    expect(next({ kind: 'afterCreation' }, '2026-11-02T00:00:00Z')).toBeUndefined();
    expect(next(null, '2026-11-02T00:00:00Z')).toBeUndefined();
  });
});
