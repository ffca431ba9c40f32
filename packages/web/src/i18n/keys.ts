/**
 * Types of translation keys, for code that keeps a key in a variable before it reaches `t()`. The
 * keys themselves come from the English resources (types.d.ts); these are types only.
 */
import type { ParseKeys } from 'i18next';

/** Every key `t()` takes: 'nav:main', 'backup:types.restore', … (and `common`'s keys unprefixed). */
export type TranslationKey = ParseKeys;

/** The keys that start with `prefix`: KeyUnder<'nav:'> is 'nav:main' | 'nav:overview' | … */
export type KeyUnder<Prefix extends string> = Extract<TranslationKey, `${Prefix}${string}`>;
