/**
 * The sign-in page rendered to static HTML at build time (the `prerender` plugin in vite.config.ts
 * puts it into index.html, one <template> per language, and scripts/signin-boot.js shows the one of
 * the chosen language on /signin before the app's script has loaded). React's first render then
 * replaces it with the same page. Runs in Node: no browser API, no router, no session.
 */
import { ChakraProvider } from '@chakra-ui/react';
import type { Language } from '@compliance-portal/sdk';
import i18next from 'i18next';
import { renderToString } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { getSystem } from '../../app/theme';
import { apiErrors } from '../../i18n/api-errors';
import { de } from '../../i18n/de';
import { en } from '../../i18n/en';
import { SignInView } from './sign-in-page';

const ignore = () => undefined;

export async function renderSignIn(language: Language): Promise<string> {
  const i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({
    resources: {
      en: { ...en, apiErrors: apiErrors('en') },
      de: { ...de, apiErrors: apiErrors('de') },
    },
    lng: language,
    fallbackLng: 'en',
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  return renderToString(
    <I18nextProvider i18n={i18n}>
      <ChakraProvider value={getSystem()}>
        <SignInView
          email=""
          password=""
          onEmailChange={ignore}
          onPasswordChange={ignore}
          emailError={null}
          passwordError={null}
          showErrors={false}
          error={null}
          busy={false}
          serverAction={{ disabled: false }}
          onSubmit={ignore}
          forgotPasswordLink={<a href="/forgot-password">{i18n.t('auth:forgotPasswordLink')}</a>}
          signUpLink={<a href="/signup">{i18n.t('auth:createAccount')}</a>}
          prerendered
        />
      </ChakraProvider>
    </I18nextProvider>,
  );
}
