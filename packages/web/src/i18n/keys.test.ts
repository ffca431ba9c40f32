/**
 * The translation keys are typed (types.d.ts): `pnpm typecheck` checks this file too, so each
 * `@ts-expect-error` below fails the type-check the day a wrong key compiles again.
 */
import type { TFunction } from 'i18next';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createI18n, loadLanguage } from './index';
import type { KeyUnder, TranslationKey } from './keys';

describe('translation keys', () => {
  it('compile when they exist and not when misspelled', async () => {
    localStorage.removeItem('language');
    const i18n = createI18n('en');
    await loadLanguage(i18n, 'en');
    // What useTranslation() gives: the default namespace (common) and every namespace's prefixed keys.
    const t: TFunction = i18n.t;

    expect(t('backup:runAccounts')).toBe('Accounts of the run');
    expect(t('loading')).toBe('Loading…');
    expect(t('table:sortBy', { column: 'Name' })).toBe('Sort by Name');
    expect(t('table:selected', { count: 2 })).toBe('2 selected');
    expect(i18n.t('nav:main')).toBe('Main navigation');

    // @ts-expect-error a misspelled key
    expect(t('backup:runAcounts')).toBe('runAcounts');
    // @ts-expect-error a misspelled namespace
    expect(t('bakup:runAccounts')).toBe('runAccounts');
    // @ts-expect-error a key under the wrong namespace
    expect(t('nav:runAccounts')).toBe('runAccounts');
    // @ts-expect-error a namespace's key without its prefix (only `common` goes without)
    expect(t('runAccounts')).toBe('runAccounts');
    // @ts-expect-error a key that is not a leaf (an object of texts)
    t('backup:types');
    // @ts-expect-error the instance's t checks the same keys
    expect(i18n.t('nav:mian')).toBe('mian');
    // @ts-expect-error a text with {{column}} needs its value
    t('table:sortBy');
  });

  it('built from a variable compile when the variable is narrowed to real keys', () => {
    const t = ((key: string) => key) as unknown as TFunction;
    const type = (v: 'backup' | 'restore') => t(`backup:types.${v}`);
    expect(type('restore')).toBe('backup:types.restore');
    // @ts-expect-error any string is not a key
    const anyType = (v: string) => t(`backup:types.${v}`);
    expect(anyType('x')).toBe('backup:types.x');
    // @ts-expect-error 'nightly' is no type
    const wrongType = (v: 'backup' | 'nightly') => t(`backup:types.${v}`);
    expect(wrongType('nightly')).toBe('backup:types.nightly');
  });

  it('have types for code that keeps them in variables', () => {
    expectTypeOf<'nav:main'>().toExtend<KeyUnder<'nav:'>>();
    expectTypeOf<'backup:runAccounts'>().toExtend<TranslationKey>();
    expectTypeOf<'nav:mian'>().not.toExtend<KeyUnder<'nav:'>>();
    expectTypeOf<'backup:runAccounts'>().not.toExtend<KeyUnder<'nav:'>>();
  });
});
