/**
 * The error catalogue: every status, refusal code and text mapping to the message a user reads, in
 * English and German, in one place.
 */
import { type ErrorCode, errorTexts, isErrorCode } from './codes.js';

/**
 * A language of the user-facing messages: English (`en`, the default and the fallback) or German
 * (`de`).
 */
export type Language = 'en' | 'de';

/**
 * Every user-facing error message in English and German, by key: the
 * messages by status and by text, the client's own (network error, timeout, unknown error) and one per
 * refusal {@link ErrorCode}. {@link errorMessage} picks from it.
 */
export const errorMessages = {
  badRequest: { en: 'Invalid request', de: 'Ungültige Anfrage' },
  unauthorized: { en: 'Unauthorized', de: 'Nicht autorisiert' },
  forbidden: { en: 'Access denied', de: 'Zugriff verweigert' },
  notFound: { en: 'Resource not found', de: 'Ressource nicht gefunden' },
  internalServerError: { en: 'Internal server error', de: 'Interner Serverfehler' },
  generic: {
    en: 'An error occurred, please try again later',
    de: 'Ein Fehler ist aufgetreten, bitte versuchen Sie es später erneut',
  },
  failedToRetrieveData: { en: 'Failed to retrieve data', de: 'Daten konnten nicht abgerufen werden' },
  invalidCredentials: { en: 'Invalid Credentials', de: 'Ungültige Anmeldedaten' },
  accountLocked: {
    en: 'The account is locked for 5 minutes after too many failed attempts.',
    de: 'Das Konto ist nach zu vielen Fehlversuchen für 5 Minuten gesperrt.',
  },
  loginVerificationFailed: { en: 'Login verification failed', de: 'Anmeldeüberprüfung fehlgeschlagen' },
  requestFailed404: {
    en: 'The requested resource could not be found (404)',
    de: 'Die angeforderte Ressource wurde nicht gefunden (404)',
  },
  requestFailed400: {
    en: 'The server could not process the request (400)',
    de: 'Der Server konnte die Anfrage nicht verarbeiten (400)',
  },
  requestTimeout: {
    en: 'The request took too long and was cancelled',
    de: 'Die Anfrage hat zu lange gedauert und wurde abgebrochen',
  },
  invalidVerificationCode: { en: 'Invalid Verification Code', de: 'Ungültiger Bestätigungscode' },
  userDoesNotExist: { en: 'User Does Not Exist', de: 'Benutzer existiert nicht' },
  networkError: {
    en: 'Network error: the server is temporarily unable to handle the request',
    de: 'Netzwerkfehler: Der Server kann die Anfrage vorübergehend nicht bearbeiten',
  },
  unknown: { en: 'Unknown error', de: 'Unbekannter Fehler' },
  trialBackupJobs: {
    en: 'Your trial licence allows one backup job per application, and this application already has one.',
    de: 'Ihre Testlizenz erlaubt einen Sicherungsauftrag pro Anwendung, und diese Anwendung hat bereits einen.',
  },
  trialSources: {
    en: 'Your trial licence allows at most 10 accounts, sites or teams per backup.',
    de: 'Ihre Testlizenz erlaubt höchstens 10 Konten, Websites oder Teams pro Sicherung.',
  },
  trialRestores: {
    en: 'Your trial licence allows at most 10 restores per application, and this application has reached it.',
    de: 'Ihre Testlizenz erlaubt höchstens 10 Wiederherstellungen pro Anwendung, und diese Anwendung hat sie erreicht.',
  },
  trialNoDelete: {
    en: 'Backup jobs cannot be deleted on a trial licence.',
    de: 'Mit einer Testlizenz können Sicherungsaufträge nicht gelöscht werden.',
  },
  storeUnreachable: {
    en: 'The storage service could not be reached at the site address.',
    de: 'Der Speicherdienst ist unter der Websiteadresse nicht erreichbar.',
  },
  storeCredentialsRefused: {
    en: 'The storage service refused the access key or secret.',
    de: 'Der Speicherdienst hat den Zugriffsschlüssel oder das Geheimnis abgelehnt.',
  },
  storeNotFound: {
    en: 'The container or bucket of the site address does not exist.',
    de: 'Der Container oder Bucket der Websiteadresse existiert nicht.',
  },
  storeProbeFailed: {
    en: 'A test object could not be written, read back and deleted in the storage location.',
    de: 'Ein Testobjekt konnte am Speicherort nicht geschrieben, gelesen und gelöscht werden.',
  },
  locationHoldsData: {
    en: 'The site address of a location that holds backed-up or archived data cannot be moved to another store.',
    de: 'Die Websiteadresse eines Speicherorts mit gesicherten oder archivierten Daten kann nicht auf einen anderen Speicher zeigen.',
  },
  jobLocationHoldsData: {
    en: 'The storage location of a job that has stored backups cannot be changed.',
    de: 'Der Speicherort eines Auftrags mit gespeicherten Sicherungen kann nicht geändert werden.',
  },
  // Every refusal code has a message of its own.
} as const satisfies Record<string, Record<Language, string>> & Record<ErrorCode, Record<Language, string>>;

/**
 * The key of a message in {@link errorMessages}: what {@link errorMessage} and an error's `messageKey`
 * name. Keys do not change with the language, so code may branch on them.
 */
export type ErrorMessageKey = keyof typeof errorMessages;

/**
 * Server and client texts that have a message of their own (section 8, mapping by text), for answers
 * without a `code` (servers that predate codes, and the client's own texts).
 */
const byText: Readonly<Record<string, ErrorMessageKey>> = {
  'Failed to fetch data': 'failedToRetrieveData',
  [errorTexts.invalidCredentials()]: 'invalidCredentials',
  [errorTexts.loginVerificationFailed()]: 'loginVerificationFailed',
  'Request failed with status code 404': 'requestFailed404',
  'Request failed with status code 400': 'requestFailed400',
  'Request timeout': 'requestTimeout',
  [errorTexts.invalidVerificationCode()]: 'invalidVerificationCode',
  [errorTexts.userDoesNotExist()]: 'userDoesNotExist',
  'Network Error': 'networkError',
};

/** The trial-licence refusals (section 6), known by how they begin (before the application's name). */
const byPrefix: readonly (readonly [string, ErrorMessageKey])[] = (
  ['trialBackupJobs', 'trialSources', 'trialRestores', 'trialNoDelete'] as const
).map((code) => [errorTexts[code]('').split(/[;.]/)[0] ?? '', code] as const);

function listedKey(text: string): ErrorMessageKey | undefined {
  return byText[text] ?? byPrefix.find(([prefix]) => text.startsWith(prefix))?.[1];
}

/** Section 8, mapping by status. */
export function statusMessageKey(status: number): ErrorMessageKey {
  switch (status) {
    case 400:
      return 'badRequest';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'notFound';
    case 500:
      return 'internalServerError';
    default:
      return 'generic';
  }
}

/** Section 8, mapping by text: a listed text gives its own key, any other text the generic one. */
export function textMessageKey(text: string): ErrorMessageKey {
  return listedKey(text) ?? 'generic';
}

/** What {@link errorMessage} accepts: a status, an error text, an error-like object, or nothing. */
export type ErrorInput =
  | number
  | string
  | { status?: number; message?: string; code?: string | undefined }
  | null
  | undefined;

/** What {@link errorMessage} answers: which message applies, and its text in the language asked for. */
export interface TranslatedError {
  /** The message's key in {@link errorMessages}. */
  key: ErrorMessageKey;
  /** The message in the language asked for, ready to show. */
  message: string;
}

function keyOf(input: ErrorInput): ErrorMessageKey {
  if (input === null || input === undefined || input === '') return 'unknown';
  if (typeof input === 'number') return statusMessageKey(input);
  if (typeof input === 'string') return textMessageKey(input);
  if (isErrorCode(input.code)) return input.code;
  const text = typeof input.message === 'string' ? input.message : undefined;
  const listed = text === undefined ? undefined : listedKey(text);
  if (listed) return listed;
  if (typeof input.status === 'number') return statusMessageKey(input.status);
  return text ? 'generic' : 'unknown';
}

/**
 * Maps an error to its user-facing message. A refusal's `code` wins, then
 * a listed text over the status of the same error, so a 401 that says "Invalid credentials." reads
 * "Invalid Credentials".
 */
export function errorMessage(input?: ErrorInput, lang: Language = 'en'): TranslatedError {
  const key = keyOf(input);
  return { key, message: errorMessages[key][lang] };
}
