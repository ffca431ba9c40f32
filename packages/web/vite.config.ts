import { readFileSync } from 'node:fs';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { precompress } from './build/precompress';
import { stripSdkDocs } from './build/strip-sdk-docs';
import { prerenderSignIn } from './scripts/prerender';

/** Server paths a navigation may open that the app shell must not answer. */
const SERVER_PATHS = [/^\/api\//, /^\/apollo(-beta)?\//, /^\/app-config\.json$/, /^\/m365-simulator\//];

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  // The offline cache's buster: data saved by one build is not read by another.
  define: { __APP_VERSION__: JSON.stringify(`${version}+${Date.now().toString(36)}`) },
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      // A route's loader goes with its page into one lazy chunk: what a loader imports (query options,
      // list defaults) is then not in the script every page loads first.
      codeSplittingOptions: {
        defaultBehavior: [['loader', 'component'], ['pendingComponent'], ['errorComponent'], ['notFoundComponent']],
      },
    }),
    react(),
    // The SDK catalogue's summaries, descriptions and refusal texts are for its OpenAPI document only.
    stripSdkDocs(),
    // /signin's first paint needs no script (issue 21); bench/signin-race.mjs signs in while the app takes over.
    prerenderSignIn(),
    VitePWA({
      // The page asks before a new version takes over (the update prompt); nothing registers by itself.
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['icons/favicon-32.png', 'icons/apple-touch-icon-180.png'],
      manifest: {
        id: '/',
        name: 'Compliance Portal',
        short_name: 'Compliance',
        description: 'Backup, archive and data management for Microsoft 365',
        lang: 'en',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: '#123b6b',
        background_color: '#ffffff',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        // The app shell only: scripts, styles, the page and icons. API answers are never cached here.
        globPatterns: ['**/*.{js,css,html,png,svg,webmanifest}'],
        globIgnores: ['**/*.map', '**/*.br', '**/*.gz'],
        maximumFileSizeToCacheInBytes: 2 * 1024 * 1024,
        navigateFallback: '/index.html',
        navigateFallbackDenylist: SERVER_PATHS,
        runtimeCaching: [],
        cleanupOutdatedCaches: true,
        sourcemap: false,
      },
    }),
    precompress(),
  ],
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/apollo': 'http://127.0.0.1:8080',
      '/apollo-beta': 'http://127.0.0.1:8080',
      '/app-config.json': 'http://127.0.0.1:8080',
    },
  },
  build: {
    target: 'es2022',
    sourcemap: true,
    // dist/.vite/manifest.json: each chunk's static and dynamic imports, read by bench/budgets.mjs.
    manifest: true,
    rolldownOptions: {
      output: {
        // The libraries every page needs, in a few vendor chunks (none over 500 KB minified) that stay
        // cached across releases of the app's own code. `$initial` keeps a group to what the entry
        // imports statically: parts of a library only lazy routes use stay in those routes' chunks.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|use-sync-external-store)[\\/]/,
              tags: ['$initial'],
              priority: 50,
            },
            {
              name: 'chakra',
              test: /node_modules[\\/](@chakra-ui|@ark-ui|@zag-js|@emotion|@pandacss|@floating-ui|@internationalized|@swc|stylis|hoist-non-react-statics|react-is|proxy-compare|proxy-memoize)[\\/]/,
              tags: ['$initial'],
              priority: 40,
            },
            { name: 'tanstack', test: /node_modules[\\/]@tanstack[\\/]/, tags: ['$initial'], priority: 30 },
            {
              name: 'i18n-xstate',
              test: /node_modules[\\/](i18next|react-i18next|html-parse-stringify|void-elements|xstate|@xstate)[\\/]/,
              tags: ['$initial'],
              priority: 20,
            },
            // The SDK's German error messages stay out: they load with the rest of German (i18n/de.ts).
            {
              name: 'sdk',
              test: /[\\/]packages[\\/]sdk[\\/](?!dist[\\/]core[\\/]messages-de\.js)/,
              tags: ['$initial'],
              priority: 10,
            },
            // The app's own modules that the first script needs, in one file: else each small module that
            // lazily loaded pages share too (list state, url state, error names) became a file of its own,
            // each with its own request and compression overhead.
            { name: 'app', test: /[\\/]packages[\\/]web[\\/]src[\\/](?!main\.tsx)/, tags: ['$initial'], priority: 5 },
          ],
        },
      },
    },
  },
});
