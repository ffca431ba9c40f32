/**
 * i18next with English and German. The English texts of the first screen (sign-in, errors, offline)
 * are bundled with the app; the rest of English, and German whole, load in their own chunks: before
 * the first signed-in page, before the first screen of a German user, before a switch of language.
 */
import { englishErrorMessages, LANGUAGES, type Language } from '@compliance-portal/sdk';
import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Resources } from './en';
import { coreNamespaces as enCore } from './en/core';
import { offlineNamespaces as enOffline } from './en/offline';

const LANGUAGE_KEY = 'language';

/**
 * The texts of the first screen: English with the SDK's English error catalogue (the `apiErrors`
 * namespace); German, its error catalogue included, comes with the rest of German (de.ts).
 */
const coreResources = {
  en: { ...enCore, ...enOffline, apiErrors: { ...englishErrorMessages } },
  de: {},
};

const areaTexts: Record<Language, () => Promise<Resources & { apiErrors?: Record<string, string> }>> = {
  en: () => import('./en').then((m) => m.en),
  de: () => import('./de').then((m) => ({ ...m.de, apiErrors: m.germanApiErrors })),
};

const loading = new WeakMap<i18n, Map<string, Promise<void>>>();

/** Adds a language's remaining texts to the instance (once; later calls wait for the same load). */
export function loadLanguage(instance: i18n, language: string = instance.language): Promise<void> {
  const lang: Language = language === 'de' ? 'de' : 'en';
  let perInstance = loading.get(instance);
  if (!perInstance) {
    perInstance = new Map();
    loading.set(instance, perInstance);
  }
  const known = perInstance.get(lang);
  if (known) return known;
  const load = areaTexts[lang]().then((texts) => {
    for (const [ns, bundle] of Object.entries(texts)) {
      if (!instance.hasResourceBundle(lang, ns)) instance.addResourceBundle(lang, ns, bundle);
    }
  });
  // A failed load (offline without the chunk) may be tried again.
  load.catch(() => perInstance.delete(lang));
  perInstance.set(lang, load);
  return load;
}

/** The chosen language from local storage; English by default. */
function storedLanguage(): Language {
  const value = typeof localStorage === 'undefined' ? null : localStorage.getItem(LANGUAGE_KEY);
  return value === 'de' || value === 'en' ? value : 'en';
}

/** Switches once the language's texts are there, so that no page shows keys meanwhile. */
export async function switchLanguage(instance: i18n, language: Language) {
  await loadLanguage(instance, language);
  await instance.changeLanguage(language);
}

export function createI18n(language: Language = storedLanguage()): i18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    // A copy: i18next adds the area texts into the object it is given.
    resources: structuredClone(coreResources),
    lng: language,
    fallbackLng: 'en',
    supportedLngs: LANGUAGES,
    defaultNS: 'common',
    ns: Object.keys(coreResources.en),
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
    // Screens re-render when the area texts arrive.
    react: { bindI18nStore: 'added' },
  });
  instance.on('languageChanged', (lng) => {
    localStorage.setItem(LANGUAGE_KEY, lng);
    document.documentElement.lang = lng;
    void loadLanguage(instance, lng).catch(() => undefined);
  });
  document.documentElement.lang = language;
  void loadLanguage(instance, language).catch(() => undefined);
  return instance;
}
