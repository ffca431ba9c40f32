import { describe, expect, it } from 'vitest';
import { apiErrors } from './api-errors';
import { de } from './de';
import { en } from './en';
import { createI18n, loadLanguage, switchLanguage } from './index';

const resources = {
  en: { ...en, apiErrors: apiErrors('en') },
  de: { ...de, apiErrors: apiErrors('de') },
};

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value === 'string') return [prefix];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

describe('languages', () => {
  it('have exactly the same keys in English and German', () => {
    expect(keys(resources.de).sort()).toEqual(keys(resources.en).sort());
  });

  it('have no empty text, and German differs where words differ', () => {
    for (const lang of ['en', 'de'] as const) for (const key of keys(resources[lang])) expect(key).not.toBe('');
    expect(resources.de.auth.signIn).not.toBe(resources.en.auth.signIn);
  });

  it('count with plural forms, never a "(s)", "(es)" or "(en)" after a word', () => {
    const textOf = (lang: 'en' | 'de', key: string) =>
      key.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], resources[lang]) as string;
    const bracketed = (['en', 'de'] as const).flatMap((lang) =>
      keys(resources[lang])
        .map((key) => `${lang} ${key}: ${textOf(lang, key)}`)
        .filter((line) => /\p{L}\((s|es|en|n|e)\)/u.test(line.slice(line.indexOf(': ')))),
    );
    expect(bracketed).toEqual([]);
  });

  it('default to English, keep the choice in local storage and fall back to English', async () => {
    const i18n = createI18n();
    expect(i18n.language).toBe('en');
    expect(i18n.t('auth:inactivityWarning')).toBe(
      'You have been inactive for 14 minutes and 30 seconds. You will be logged off in 30 seconds if there is no activity.',
    );
    await switchLanguage(i18n, 'de');
    expect(localStorage.getItem('language')).toBe('de');
    expect(document.documentElement.lang).toBe('de');
    expect(createI18n().language).toBe('de');
    expect(i18n.t('apiErrors:notFound')).toBe('Ressource nicht gefunden');
    expect(i18n.t('auth:missingKey' as never)).toBe('missingKey');
  });

  it('bundle the first screen’s texts and load an area’s texts in the chosen language on demand', async () => {
    localStorage.removeItem('language');
    const i18n = createI18n();
    expect(i18n.hasResourceBundle('en', 'auth')).toBe(true);
    expect(i18n.hasResourceBundle('de', 'auth')).toBe(false);
    await loadLanguage(i18n, 'en');
    expect(i18n.t('backup:runAccounts')).toBe('Accounts of the run');
    expect(i18n.hasResourceBundle('de', 'backup')).toBe(false);
    await loadLanguage(i18n, 'de');
    await i18n.changeLanguage('de');
    expect(i18n.t('backup:runAccounts')).toBe(de.backup.runAccounts);
  });
});
