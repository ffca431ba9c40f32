/**
 * Which message of the error catalogue applies to an error: by its refusal code, by a listed text,
 * by its status. No language but English, which every client bundles (a German one loads German
 * apart), and none of the server's refusal texts but those recognised by their words.
 */
import type { ErrorCode } from './codes.js';
import { matchedTexts } from './matched-texts.js';
import { englishErrorMessages } from './messages-en.js';

/**
 * The key of a message in the error catalogue (`errorMessages`): what `errorMessage` and an error's
 * `messageKey` name. Keys do not change with the language, so code may branch on them.
 */
export type ErrorMessageKey = keyof typeof englishErrorMessages;

/**
 * Server and client texts that have a message of their own (section 8, mapping by text), for answers
 * without a `code` (servers that predate codes, and the client's own texts).
 */
const byText: Readonly<Record<string, ErrorMessageKey>> = {
  'Failed to fetch data': 'failedToRetrieveData',
  [matchedTexts.invalidCredentials()]: 'invalidCredentials',
  [matchedTexts.loginVerificationFailed()]: 'loginVerificationFailed',
  'Request failed with status code 404': 'requestFailed404',
  'Request failed with status code 400': 'requestFailed400',
  'Request timeout': 'requestTimeout',
  [matchedTexts.invalidVerificationCode()]: 'invalidVerificationCode',
  [matchedTexts.userDoesNotExist()]: 'userDoesNotExist',
  'Network Error': 'networkError',
};

/** The trial-licence refusals (section 6), known by how they begin (before the application's name). */
const byPrefix: readonly (readonly [string, ErrorMessageKey])[] = (
  ['trialBackupJobs', 'trialSources', 'trialRestores', 'trialNoDelete'] as const
).map((code) => [matchedTexts[code]('').split(/[;.]/)[0] ?? '', code] as const);

function listedKey(text: string): ErrorMessageKey | undefined {
  return byText[text] ?? byPrefix.find(([prefix]) => text.startsWith(prefix))?.[1];
}

/**
 * Whether a refusal's `code` names a message of the catalogue: every {@link ErrorCode} does (the
 * English catalogue holds a message per code), so the catalogue's keys answer without the refusals'
 * texts.
 */
function isRefusalCode(code: string | undefined): code is ErrorMessageKey {
  return typeof code === 'string' && Object.hasOwn(englishErrorMessages, code);
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

/** What `errorMessage` accepts: a status, an error text, an error-like object, or nothing. */
export type ErrorInput =
  | number
  | string
  | { status?: number; message?: string; code?: string | undefined }
  | null
  | undefined;

/**
 * The key of an error's message. A refusal's `code` wins, then a listed text over the status of the
 * same error, so a 401 that says "Invalid credentials." reads "Invalid Credentials".
 */
export function errorMessageKey(input?: ErrorInput): ErrorMessageKey {
  if (input === null || input === undefined || input === '') return 'unknown';
  if (typeof input === 'number') return statusMessageKey(input);
  if (typeof input === 'string') return textMessageKey(input);
  if (isRefusalCode(input.code)) return input.code;
  const text = typeof input.message === 'string' ? input.message : undefined;
  const listed = text === undefined ? undefined : listedKey(text);
  if (listed) return listed;
  if (typeof input.status === 'number') return statusMessageKey(input.status);
  return text ? 'generic' : 'unknown';
}
