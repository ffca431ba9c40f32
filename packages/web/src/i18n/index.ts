import { errorMessages, type Language } from '@compliance-portal/sdk';
import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { de } from './de';
import { en } from './en';

export const LANGUAGE_KEY = 'language';
export const LANGUAGES: readonly Language[] = ['en', 'de'];

/** The SDK's error catalogue (product-spec.md section 8) as the `apiErrors` namespace. */
function apiErrors(lang: Language): Record<string, string> {
  return Object.fromEntries(Object.entries(errorMessages).map(([key, texts]) => [key, texts[lang]]));
}

export const resources = {
  en: { ...en, apiErrors: apiErrors('en') },
  de: { ...de, apiErrors: apiErrors('de') },
};

/** The chosen language from local storage; English by default. */
export function storedLanguage(): Language {
  const value = typeof localStorage === 'undefined' ? null : localStorage.getItem(LANGUAGE_KEY);
  return value === 'de' || value === 'en' ? value : 'en';
}

export function createI18n(language: Language = storedLanguage()): i18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: 'en',
    supportedLngs: LANGUAGES,
    defaultNS: 'common',
    ns: Object.keys(resources.en),
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  instance.on('languageChanged', (lng) => {
    localStorage.setItem(LANGUAGE_KEY, lng);
    document.documentElement.lang = lng;
  });
  document.documentElement.lang = language;
  return instance;
}
