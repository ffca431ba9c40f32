/**
 * The forms' one validation layer: rules whose failures are the specification's generic messages
 * (namespace `validation`: the generic messages every form gives), with their value filled in, in the user's
 * language. A field lists its rules; the first that fails gives its error:
 *
 *   const check = useValidator();
 *   const error = check(count, rules.required(), rules.wholeNumber(), rules.min(1), rules.max(500));
 *
 * Every rule but `required` and the item rules lets an empty value pass, so an optional field is
 * checked only when filled in.
 */
import type { TFunction } from 'i18next';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/** The generic messages' keys in the `validation` namespace that name a value ({{value}}). */
type ValidationKeyWithValue = 'tooShort' | 'tooLong' | 'minItems' | 'maxItems' | 'min' | 'max';

/** The generic messages' keys in the `validation` namespace. */
type ValidationKey =
  | 'required'
  | 'pattern'
  | 'email'
  | 'atLeastOne'
  | 'number'
  | 'compare'
  | 'dateFormat'
  | ValidationKeyWithValue;

/** Why a value failed: the message's key and, when the message names one, the value (a length, a count, a bound). */
export type ValidationProblem =
  | { key: Exclude<ValidationKey, ValidationKeyWithValue>; value?: undefined }
  | { key: ValidationKeyWithValue; value: number | string };

/** A rule: null when the value passes, else its problem. */
export type Rule<V> = (value: V) => ValidationProblem | null;

/** What an email address must look like: something, an @, a domain with a dot, no spaces. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A number as typed: digits with an optional sign and decimals after a point or (German) comma. */
const NUMBER = /^[-+]?(\d+([.,]\d*)?|[.,]\d+)$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;

type Items = readonly unknown[] | ReadonlySet<unknown> | ReadonlyMap<unknown, unknown>;

const blank = (value: string | null | undefined) => !value || value.trim() === '';
const sizeOf = (items: Items | null | undefined) =>
  !items ? 0 : 'size' in items ? items.size : (items as readonly unknown[]).length;

/** `text` as a number when it is one (a decimal comma is read as a point), else undefined. */
export function parseNumber(text: string): number | undefined {
  const trimmed = text.trim();
  if (!NUMBER.test(trimmed)) return undefined;
  const value = Number(trimmed.replace(',', '.'));
  return Number.isFinite(value) ? value : undefined;
}

/** Whether `text` is a calendar date written yyyy-mm-dd (as date inputs give it): 2026-02-30 is not. */
export function isDate(text: string): boolean {
  const match = DATE.exec(text.trim());
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Whether `text` is a time hh:mm (or hh:mm:ss), 24-hour. */
const isTime = (text: string) => TIME.test(text.trim());

/** Whether `text` is a date and time yyyy-mm-ddThh:mm (as datetime-local inputs give it). */
export function isDateTime(text: string): boolean {
  const [date, time, ...rest] = text.trim().split('T');
  return rest.length === 0 && date !== undefined && time !== undefined && isDate(date) && isTime(time);
}

/** Whether `text` is an http or https address with a host. */
export function isWebAddress(text: string): boolean {
  try {
    const url = new URL(text.trim());
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const numberOf = (value: string | number) => (typeof value === 'number' ? value : parseNumber(value));

export const rules = {
  /** Not empty (a text of only spaces is empty). "Field must not be empty." */
  required: (): Rule<string | null | undefined> => (value) => (blank(value) ? { key: 'required' } : null),
  /** At least `n` characters, spaces at the ends not counted. */
  minLength:
    (n: number): Rule<string> =>
    (value) =>
      blank(value) || value.trim().length >= n ? null : { key: 'tooShort', value: n },
  /** At most `n` characters. */
  maxLength:
    (n: number): Rule<string> =>
    (value) =>
      value.length <= n ? null : { key: 'tooLong', value: n },
  /** Matches `pattern` (as a whole, spaces at the ends not counted). */
  pattern:
    (pattern: RegExp): Rule<string> =>
    (value) =>
      blank(value) || pattern.test(value.trim()) ? null : { key: 'pattern' },
  /** A web address: http:// or https:// and a host. "Value does not match the required pattern." */
  url: (): Rule<string> => (value) => (blank(value) || isWebAddress(value) ? null : { key: 'pattern' }),
  /** An email address. */
  email: (): Rule<string> => (value) => (blank(value) || EMAIL_PATTERN.test(value.trim()) ? null : { key: 'email' }),
  /** At least `n` items chosen: for one, "At least one item must be selected." */
  minItems:
    (n = 1): Rule<Items | null | undefined> =>
    (items) =>
      sizeOf(items) >= n ? null : n === 1 ? { key: 'atLeastOne' } : { key: 'minItems', value: n },
  /** At most `n` items chosen. */
  maxItems:
    (n: number): Rule<Items | null | undefined> =>
    (items) =>
      sizeOf(items) <= n ? null : { key: 'maxItems', value: n },
  /** A number (a decimal comma is read as a point). */
  number: (): Rule<string> => (value) => (blank(value) || parseNumber(value) !== undefined ? null : { key: 'number' }),
  /** A whole number. */
  wholeNumber: (): Rule<string> => (value) =>
    blank(value) || Number.isInteger(parseNumber(value)) ? null : { key: 'number' },
  /** At least `n`; a text that is not a number is left to `number`. */
  min:
    (n: number): Rule<string | number> =>
    (value) => {
      const number = value === '' ? undefined : numberOf(value);
      return number === undefined || number >= n ? null : { key: 'min', value: n };
    },
  /** At most `n`. */
  max:
    (n: number): Rule<string | number> =>
    (value) => {
      const number = value === '' ? undefined : numberOf(value);
      return number === undefined || number <= n ? null : { key: 'max', value: n };
    },
  /** A date yyyy-mm-dd. */
  date: (): Rule<string> => (value) => (blank(value) || isDate(value) ? null : { key: 'dateFormat' }),
  /** A time hh:mm. */
  time: (): Rule<string> => (value) => (blank(value) || isTime(value) ? null : { key: 'dateFormat' }),
  /** A date and time yyyy-mm-ddThh:mm. */
  dateTime: (): Rule<string> => (value) => (blank(value) || isDateTime(value) ? null : { key: 'dateFormat' }),
  /**
   * Not before `other` (another field's value, compared as the same kind: numbers as numbers, dates and
   * times as their ISO text): the "to" of a range given its "from". Passes while either is empty.
   */
  notBefore:
    (other: string | number | null | undefined): Rule<string | number> =>
    (value) =>
      compare(value, other) >= 0 ? null : { key: 'compare' },
  /** Not after `other`: the "from" of a range given its "to". */
  notAfter:
    (other: string | number | null | undefined): Rule<string | number> =>
    (value) =>
      compare(value, other) <= 0 ? null : { key: 'compare' },
};

/** -1, 0 or 1 as `a` is below, at or above `b`; 0 when either is empty or they cannot be compared. */
function compare(a: string | number | null | undefined, b: string | number | null | undefined): number {
  if (a === null || a === undefined || b === null || b === undefined || a === '' || b === '') return 0;
  const x = typeof a === 'number' ? a : parseNumber(a);
  const y = typeof b === 'number' ? b : parseNumber(b);
  if (x !== undefined && y !== undefined) return Math.sign(x - y);
  if (typeof a !== 'string' || typeof b !== 'string') return 0;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The first problem of `value` under `checks`, or null. */
export function firstProblem<V>(value: V, ...checks: Rule<V>[]): ValidationProblem | null {
  for (const check of checks) {
    const problem = check(value);
    if (problem) return problem;
  }
  return null;
}

/** The message of `problem` in the user's language, its value filled in. */
export function validationMessage(t: TFunction, problem: ValidationProblem): string {
  return problem.value === undefined
    ? t(`validation:${problem.key}`)
    : t(`validation:${problem.key}`, { value: problem.value });
}

/** `check(value, ...rules)`: the first failing rule's message in the user's language, or null. */
export function useValidator() {
  const { t } = useTranslation();
  return useCallback(
    <V>(value: V, ...checks: Rule<V>[]): string | null => {
      const problem = firstProblem(value, ...checks);
      return problem ? validationMessage(t, problem) : null;
    },
    [t],
  );
}
