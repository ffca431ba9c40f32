/** What a trial licence allows: one backup job per application, 10 accounts, sites or teams per backup, 10 restores per application, no deletion of backup jobs. A full licence has no such limits. */
export const TRIAL_LIMITS = {
  backupJobsPerApplication: 1,
  sourcesPerBackup: 10,
  restoresPerApplication: 10,
  canDeleteBackupJobs: false,
} as const;

/** The longest name a document may have. */
export const MAX_FILE_NAME_LENGTH = 255;

const FORBIDDEN_IN_FILE_NAME =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what the rule refuses
  /[\u0000-\u001f\u007f-\u009f/\\"<>|*?:\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const RESERVED_DEVICE_NAMES = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

/**
 * Whether a document may be stored under this name, on the server and on any desktop it is saved to:
 * 1 to 255 characters; no path separator or "..", no `: * ? " < > |`; no control character, no
 * bidirectional control (which can disguise an extension, as U+202E does) and no line or paragraph
 * separator; not a device name Windows reserves (CON, PRN, AUX, NUL, COM0–9, LPT0–9, with or without
 * an extension); no leading or trailing space and no trailing dot. A name is refused, never cut down.
 */
export function isAllowedFileName(name: string): boolean {
  return (
    name.length > 0 &&
    name.length <= MAX_FILE_NAME_LENGTH &&
    name.trim() === name &&
    !name.endsWith('.') &&
    !name.includes('..') &&
    !FORBIDDEN_IN_FILE_NAME.test(name) &&
    !RESERVED_DEVICE_NAMES.test(name)
  );
}

/**
 * The bounds of eDiscovery: at most 500 cases per tenant; in a search or a case at most 100 mailboxes,
 * 100 teams and 100 chat accounts, each id at most 256 characters. Microsoft Graph's user, group and
 * team ids are GUIDs (36 characters) and its chat ids about 100; 256 also takes any email address.
 */
export const EDISCOVERY_LIMITS = {
  casesPerTenant: 500,
  idsPerList: 100,
  idLength: 256,
} as const;
