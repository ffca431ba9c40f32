/**
 * Outlook's time zones: a dateTimeTimeZone's zone is a Windows name (`Pacific Standard Time`, as
 * Outlook stores them) or an IANA one. The archive reads times in UTC; writing an event or a task back
 * in the zone it was made in (its `originalStartTimeZone`) needs the wall clock there, which the
 * platform's time zone data gives once a Windows name is mapped to its IANA zone. A zone named here by
 * neither is not guessed: the time goes back in UTC, the same instant.
 */

/** The Windows names Outlook writes most, and the IANA zone each stands for (CLDR's windowsZones). */
const WINDOWS_ZONES: Record<string, string> = {
  UTC: 'UTC',
  'Coordinated Universal Time': 'UTC',
  'Greenwich Standard Time': 'Atlantic/Reykjavik',
  'GMT Standard Time': 'Europe/London',
  'W. Europe Standard Time': 'Europe/Berlin',
  'Romance Standard Time': 'Europe/Paris',
  'Central Europe Standard Time': 'Europe/Budapest',
  'Central European Standard Time': 'Europe/Warsaw',
  'E. Europe Standard Time': 'Europe/Chisinau',
  'FLE Standard Time': 'Europe/Kiev',
  'GTB Standard Time': 'Europe/Bucharest',
  'Russian Standard Time': 'Europe/Moscow',
  'Turkey Standard Time': 'Europe/Istanbul',
  'Israel Standard Time': 'Asia/Jerusalem',
  'Arabian Standard Time': 'Asia/Dubai',
  'Eastern Standard Time': 'America/New_York',
  'Central Standard Time': 'America/Chicago',
  'Mountain Standard Time': 'America/Denver',
  'US Mountain Standard Time': 'America/Phoenix',
  'Pacific Standard Time': 'America/Los_Angeles',
  'Alaskan Standard Time': 'America/Anchorage',
  'Hawaiian Standard Time': 'Pacific/Honolulu',
  'Atlantic Standard Time': 'America/Halifax',
  'E. South America Standard Time': 'America/Sao_Paulo',
  'India Standard Time': 'Asia/Kolkata',
  'China Standard Time': 'Asia/Shanghai',
  'Tokyo Standard Time': 'Asia/Tokyo',
  'Korea Standard Time': 'Asia/Seoul',
  'Singapore Standard Time': 'Asia/Singapore',
  'South Africa Standard Time': 'Africa/Johannesburg',
  'AUS Eastern Standard Time': 'Australia/Sydney',
  'New Zealand Standard Time': 'Pacific/Auckland',
};

const formats = new Map<string, Intl.DateTimeFormat>();

/** The platform's format of a Windows or IANA zone's wall clock, or undefined for a zone it does not know. */
function wallClockFormat(name: string): Intl.DateTimeFormat | undefined {
  const zone = WINDOWS_ZONES[name] ?? name;
  const known = formats.get(zone);
  if (known) return known;
  try {
    const format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(zone, format);
    return format;
  } catch {
    return undefined;
  }
}

/** The wall clock (read as UTC milliseconds) of an instant in a zone. */
function wallClock(format: Intl.DateTimeFormat, instant: number): number {
  const parts = Object.fromEntries(format.formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return wall + (instant % 1000);
}

/** An instant as Graph's dateTimeTimeZone in `zone`; in UTC when the zone is unknown or not given. */
export function inZone(instant: Date, zone: string | null | undefined): { dateTime: string; timeZone: string } {
  const format = zone ? wallClockFormat(zone) : undefined;
  if (!zone || !format) return { dateTime: instant.toISOString().slice(0, 19), timeZone: 'UTC' };
  return { dateTime: new Date(wallClock(format, instant.getTime())).toISOString().slice(0, 19), timeZone: zone };
}

/**
 * The instant of a dateTimeTimeZone (a wall clock in its zone; a value with its own offset or Z is
 * that instant); undefined when it reads as no date-time or names a zone the platform does not know.
 */
export function instantOf(value: { dateTime?: string | null; timeZone?: string | null } | null | undefined) {
  const text = value?.dateTime;
  if (!text) return undefined;
  if (/(?:Z|[+-]\d{2}:\d{2})$/i.test(text)) {
    const at = Date.parse(text);
    return Number.isNaN(at) ? undefined : new Date(at);
  }
  const wall = Date.parse(`${text.slice(0, 19)}Z`);
  const format = wallClockFormat(value?.timeZone || 'UTC');
  if (Number.isNaN(wall) || !format) return undefined;
  // The offset at the wall clock read as UTC, then at the instant that gives: right across a change.
  const first = wall - (wallClock(format, wall) - wall);
  return new Date(wall - (wallClock(format, first) - first));
}

/** The calendar date (YYYY-MM-DD) of an instant in a zone (UTC when it is unknown). */
export function dateIn(instant: Date, zone: string | null | undefined): string {
  return inZone(instant, zone).dateTime.slice(0, 10);
}
