import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { minifySync, type Plugin, runnerImport } from 'vite';
import type * as Prerender from '../src/features/auth/prerender';
import { SIGN_UP_ATTRIBUTE } from '../src/features/auth/prerendered';

const LANGUAGES = ['en', 'de'] as const;
type PrerenderedLanguage = (typeof LANGUAGES)[number];
const WEB_ROOT = fileURLToPath(new URL('..', import.meta.url));
const MODULE = fileURLToPath(new URL('../src/features/auth/prerender.tsx', import.meta.url));
/** On each language's <template> of the page in #root. */
const PAGE = 'data-prerendered-page';

/**
 * Run synchronously in <head> (a file of its own: the Content-Security-Policy allows no inline
 * script). Asks for /app-config.json at once, for the app. Decides whether the prerendered sign-in
 * page shows: on /signin, for no signed-in user (the app sends those on), in the chosen language,
 * whose <template> it puts into #root once the body is parsed, its offer to sign up shown when the
 * server's answer (or the last one kept) says sign-up is open. Then loads the app's script (its entry
 * and module preloads, in this script's data-entry and data-preload): on /signin after the first
 * paint, which needs no script, elsewhere at once. A form submitted before the app is there is
 * marked, and the app signs in with what was typed once it renders (src/features/auth/prerendered.ts).
 * Written as a function so that it is type-checked; emitted as its source.
 */
function bootPortal(pageAttribute: string, signUpAttribute: string) {
  const self = document.currentScript;
  // The app needs the server's configuration before it starts: asked for now, beside its script, and
  // handed over (src/app/api.ts loadAppConfig). The sign-in page reads from it whether to offer sign-up.
  const holder = window as { portalAppConfig?: Promise<{ selfRegistration?: string }> };
  const config = fetch('/app-config.json', { headers: { Accept: 'application/json' } }).then((response) =>
    response.ok ? response.json() : Promise.reject(new Error(`app-config.json answered ${response.status}`)),
  );
  // Handled here, so that a failure is not reported before the app takes it (it asks again then).
  config.catch(() => undefined);
  holder.portalAppConfig = config;
  let loaded = false;
  const loadApp = () => {
    if (loaded || !self) return;
    loaded = true;
    for (const href of (self.dataset.preload ?? '').split(' ').filter(Boolean)) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.append(link);
    }
    const script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = self.dataset.entry ?? '';
    document.head.append(script);
  };
  let language: string | undefined;
  try {
    const signedIn = localStorage.getItem('user') || /(^|;\s*)user=/.test(document.cookie);
    if (window.location.pathname === '/signin' && !signedIn) {
      language = localStorage.getItem('language') === 'de' ? 'de' : 'en';
    }
  } catch {
    // Storage refused (private mode and the like): the app renders the page itself.
  }
  if (!language) {
    loadApp();
    return;
  }
  const chosen = language;
  document.documentElement.lang = chosen;
  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute('data-prerendered')) return;
    event.preventDefault();
    form.setAttribute('data-submitted', '');
  });
  // Once the body is parsed (nothing defers that: the app's script is added later, as async).
  document.addEventListener('DOMContentLoaded', () => {
    const root = document.getElementById('root');
    const page = document.querySelector(`template[${pageAttribute}="${chosen}"]`);
    if (root && page instanceof HTMLTemplateElement) {
      root.append(page.content.cloneNode(true));
      // Sign-up is offered as the last answer kept said at once, then as the server says now.
      const offer = root.querySelector<HTMLElement>(`[${signUpAttribute}]`);
      // Invisible in the markup, its line kept: shown in place when open, taken out when closed.
      const offerSignUp = (answer: { selfRegistration?: string } | null) => {
        if (!offer || !answer) return;
        const open = answer.selfRegistration === 'open';
        offer.style.visibility = open ? 'visible' : '';
        offer.hidden = !open;
      };
      try {
        offerSignUp(JSON.parse(localStorage.getItem('appConfig') ?? 'null'));
      } catch {
        // Nothing kept, or not JSON: the server's answer decides.
      }
      config.then(offerSignUp, () => undefined);
      // Kept for the app, which may clear #root (a first commit of a fallback) before its sign-in page
      // looks for the form: what is typed or submitted into it is read from it then.
      (window as { prerenderedSignIn?: Element | null }).prerenderedSignIn =
        root.querySelector('form[data-prerendered]');
    }
    // After the frame that paints the page; a hidden tab runs no animation frame, hence the timer.
    requestAnimationFrame(() => setTimeout(loadApp, 0));
    setTimeout(loadApp, 250);
  });
}

/** The <style> elements of a rendered page, and the rest of it. */
function splitStyles(html: string) {
  const styles: { key: string; text: string }[] = [];
  const markup = html.replace(/<style data-emotion="([^"]*)"[^>]*>[\s\S]*?<\/style>/g, (text, key: string) => {
    styles.push({ key, text });
    return '';
  });
  return { styles, markup };
}

/**
 * Prerenders /signin at build time (issue 21: the first paint of a public page needs no script):
 * src/features/auth/prerender.tsx renders the page in English and in German with its Chakra styles
 * into index.html's #root, the page of each language as a <template> that the boot script
 * (assets/signin-boot-<hash>.js, in <head>) shows on /signin; the boot script then loads the app's
 * script, after that first paint. React's first render replaces #root's content with the same page (and, on
 * any other path, with that path's page). The service worker precaches index.html with the
 * prerendered page and the boot script.
 */
export function prerenderSignIn(): Plugin {
  let pages: Promise<Record<PrerenderedLanguage, string>> | undefined;
  const boot = minifySync(
    'signin-boot.js',
    `(${bootPortal.toString()})(${JSON.stringify(PAGE)},${JSON.stringify(SIGN_UP_ATTRIBUTE)});`,
  ).code;
  const bootFile = `assets/signin-boot-${createHash('sha256').update(boot).digest('hex').slice(0, 8)}.js`;
  return {
    name: 'portal:prerender-signin',
    apply: 'build',
    buildStart() {
      // Rendered beside the build (Node, through Vite's module runner); awaited when index.html is written.
      pages = (async () => {
        const { module } = await runnerImport<typeof Prerender>(MODULE, {
          configFile: false,
          root: WEB_ROOT,
          logLevel: 'warn',
          plugins: [react()],
        });
        const entries = await Promise.all(
          LANGUAGES.map(async (language) => [language, await module.renderSignIn(language)] as const),
        );
        return Object.fromEntries(entries) as Record<PrerenderedLanguage, string>;
      })();
      // Not left unhandled if the build fails before index.html.
      pages.catch(() => undefined);
      this.emitFile({ type: 'asset', fileName: bootFile, source: boot });
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html) {
        if (!pages) throw new Error('prerender-signin: the pages were not rendered');
        const rendered = await pages;
        const styles = new Map<string, string>();
        const markup: Partial<Record<PrerenderedLanguage, string>> = {};
        for (const language of LANGUAGES) {
          const split = splitStyles(rendered[language]);
          for (const { key, text } of split.styles) if (!styles.has(key)) styles.set(key, text);
          markup[language] = split.markup;
        }
        const root = '<div id="root"></div>';
        if (!html.includes(root)) throw new Error(`prerender-signin: no ${root} in index.html`);
        // The app's entry and module preloads leave <head>: the boot script loads them.
        let entry: string | undefined;
        const preloads: string[] = [];
        const withoutApp = html
          .replace(/\s*<script type="module" crossorigin src="([^"]+)"><\/script>/, (_tag, src: string) => {
            entry = src;
            return '';
          })
          .replace(/\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g, (_tag, href: string) => {
            preloads.push(href);
            return '';
          });
        if (!entry) throw new Error('prerender-signin: no module script in index.html');
        const headEnd = withoutApp.indexOf('</head>');
        const head = `  <script src="/${bootFile}" data-entry="${entry}" data-preload="${preloads.join(' ')}"></script>\n  `;
        // Chakra's styles of the page are emotion's server-rendered ones: emotion moves them into
        // <head> when the app starts and inserts them no second time.
        const page = [
          `<div id="root">${[...styles.values()].join('')}`,
          ...LANGUAGES.map((language) => `<template ${PAGE}="${language}">${markup[language]}</template>`),
          '</div>',
        ].join('');
        return `${withoutApp.slice(0, headEnd)}${head}${withoutApp.slice(headEnd)}`.replace(root, page);
      },
    },
  };
}
