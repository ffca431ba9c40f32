/**
 * Which message of the error catalogue applies to an error: by its refusal code, by a listed text,
 * by its status. Keys only, no texts: an error's `messageKey` is known without bundling any language.
 */
import { errorTexts, isErrorCode } from './codes.js';
import type { englishErrorMessages } from './messages-en.js';

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
  if (isErrorCode(input.code)) return input.code;
  const text = typeof input.message === 'string' ? input.message : undefined;
  const listed = text === undefined ? undefined : listedKey(text);
  if (listed) return listed;
  if (typeof input.status === 'number') return statusMessageKey(input.status);
  return text ? 'generic' : 'unknown';
}
