/**
 * The keys of `t()` typed from the English resources: a key that is not in en.ts (or, for
 * `apiErrors`, in the SDK's error catalogue) is a compile error.
 *
 * The app calls `t('namespace:key.path')` from `useTranslation()` without a namespace, so the
 * default namespace is typed as a list that starts with the runtime default (`common`, whose keys
 * may also go without prefix) and goes on with every namespace, each of which may be named before
 * the `:` (nsSeparator, as in index.ts's init options).
 */
import 'i18next';
import type { ErrorMessageKey } from '@compliance-portal/sdk';
import type { en } from './en';

/** Every namespace: the areas' and the first screen's (en.ts) and the SDK's error catalogue. */
export type I18nResources = typeof en & { apiErrors: Record<ErrorMessageKey, string> };
export type I18nNamespace = keyof I18nResources;

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: readonly ['common', ...Exclude<I18nNamespace, 'common'>[]];
    resources: I18nResources;
    nsSeparator: ':';
    keySeparator: '.';
    returnNull: false;
  }
}
