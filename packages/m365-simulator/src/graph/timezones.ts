/**
 * Outlook's dateTimeTimeZone: a wall-clock date-time (`2019-03-15T12:00:00.0000000`) and the time zone
 * it is in, by its Windows name (`Pacific Standard Time`, as Outlook writes them) or its IANA name
 * (which Outlook accepts too). The zones are read through the platform's time zone data; a Windows
 * name is first mapped to its IANA zone, for the zones named here.
 */

/** Windows time zone names (as Outlook stores them) and the IANA zone each stands for. */
const WINDOWS_ZONES: Record<string, string> = {
  UTC: 'UTC',
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
  'Eastern Standard Time': 'America/New_York',
  'Central Standard Time': 'America/Chicago',
  'Mountain Standard Time': 'America/Denver',
  'Pacific Standard Time': 'America/Los_Angeles',
  'Alaskan Standard Time': 'America/Anchorage',
  'Hawaiian Standard Time': 'Pacific/Honolulu',
  'E. South America Standard Time': 'America/Sao_Paulo',
  'India Standard Time': 'Asia/Kolkata',
  'China Standard Time': 'Asia/Shanghai',
  'Tokyo Standard Time': 'Asia/Tokyo',
  'Singapore Standard Time': 'Asia/Singapore',
  'AUS Eastern Standard Time': 'Australia/Sydney',
  'New Zealand Standard Time': 'Pacific/Auckland',
};

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The IANA zone a Windows or IANA name stands for, or undefined for a name Outlook would refuse. */
export function ianaZone(name: string): string | undefined {
  const mapped =
    WINDOWS_ZONES[name] ?? Object.entries(WINDOWS_ZONES).find(([w]) => w.toLowerCase() === name.toLowerCase())?.[1];
  const zone = mapped ?? name;
  if (formatters.has(zone)) return zone;
  try {
    formatters.set(
      zone,
      new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      }),
    );
    return zone;
  } catch {
    return undefined;
  }
}

/** Milliseconds the zone is ahead of UTC at an instant. */
function offsetAt(zone: string, instant: number): number {
  const format = formatters.get(zone);
  if (!format) return 0;
  const parts = Object.fromEntries(format.formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return wall - Math.floor(instant / 1000) * 1000;
}

/** A wall-clock date-time's fixed-width text, as Outlook writes it: seven digits of fractions. */
const wallText = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}.0000000`;

/**
 * The UTC instant (ms) of a wall-clock date-time in a zone (Windows or IANA name), or undefined when
 * the text is no date-time or the zone is unknown. A date-time with its own offset or `Z` is read as
 * that instant.
 */
export function toInstant(dateTime: string, timeZone: string | null | undefined): number | undefined {
  if (/(?:Z|[+-]\d{2}:\d{2})$/i.test(dateTime)) {
    const at = Date.parse(dateTime);
    return Number.isNaN(at) ? undefined : at;
  }
  const m = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}(?::\d{2})?)(\.\d+)?)?$/.exec(dateTime);
  if (!m) return undefined;
  const zone = ianaZone(timeZone || 'UTC');
  if (!zone) return undefined;
  const wall = Date.parse(`${m[1]}T${m[2] ?? '00:00:00'}${(m[2] ?? '').length === 5 ? ':00' : ''}Z`);
  if (Number.isNaN(wall)) return undefined;
  // The offset at the wall-clock time read as UTC, then at the instant that gives: right across a change.
  const first = wall - offsetAt(zone, wall);
  return wall - offsetAt(zone, first);
}

/** An instant as Outlook's dateTimeTimeZone in a zone (Windows or IANA name; UTC when unknown). */
export function inZone(instant: number, timeZone: string): { dateTime: string; timeZone: string } {
  const zone = ianaZone(timeZone);
  if (!zone) return { dateTime: wallText(instant), timeZone: 'UTC' };
  return { dateTime: wallText(instant + offsetAt(zone, instant)), timeZone };
}

/** The calendar date (YYYY-MM-DD) and weekday (0 Sunday) of an instant in a zone. */
export function dateIn(instant: number, timeZone: string): { date: string; weekday: number } {
  const { dateTime } = inZone(instant, timeZone);
  const date = dateTime.slice(0, 10);
  return { date, weekday: new Date(`${date}T00:00:00Z`).getUTCDay() };
}
