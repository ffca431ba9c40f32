/**
 * The error catalogue: every status, refusal code and text mapping to the message a user reads, in
 * English and German, in one place. The texts live one language per module (messages-en.ts,
 * messages-de.ts) and the choice of key in message-keys.ts, so an app can bundle the key logic and one
 * language and load the other when it is chosen.
 */
import { type ErrorInput, type ErrorMessageKey, errorMessageKey } from './message-keys.js';
import { germanErrorMessages } from './messages-de.js';
import { englishErrorMessages } from './messages-en.js';

export {
  type ErrorInput,
  type ErrorMessageKey,
  errorMessageKey,
  statusMessageKey,
  textMessageKey,
} from './message-keys.js';
export { germanErrorMessages } from './messages-de.js';
export { englishErrorMessages } from './messages-en.js';

import type { Language } from './languages.js';

/**
 * Every user-facing error message in English and German, by key: the messages by status and by text,
 * the client's own (network error, timeout, unknown error) and one per refusal code.
 * {@link errorMessage} picks from it.
 */
export const errorMessages = /*#__PURE__*/ Object.fromEntries(
  Object.entries(englishErrorMessages).map(([key, en]) => [
    key,
    { en, de: germanErrorMessages[key as ErrorMessageKey] },
  ]),
) as { readonly [K in ErrorMessageKey]: Readonly<Record<Language, string>> };

/** What {@link errorMessage} answers: which message applies, and its text in the language asked for. */
export interface TranslatedError {
  /** The message's key in {@link errorMessages}. */
  key: ErrorMessageKey;
  /** The message in the language asked for, ready to show. */
  message: string;
}

/** Maps an error to its user-facing message in `lang` (see errorMessageKey for which applies). */
export function errorMessage(input?: ErrorInput, lang: Language = 'en'): TranslatedError {
  const key = errorMessageKey(input);
  return { key, message: (lang === 'de' ? germanErrorMessages : englishErrorMessages)[key] };
}
