#!/usr/bin/env node
/**
 * The size budgets of the built PWA, read from dist/ after `vite build` (which writes
 * dist/.vite/manifest.json and a sourcemap beside every chunk):
 * - the JavaScript and CSS before the first route renders (the entry chunk and everything it imports
 *   statically, transitively) at most 228 KB gzipped (220 until issue 37, whose sign-up, admin consent,
 *   diagnosis by cause and user administration added 15 endpoints and 35 refusal codes to the SDK the
 *   entry carries, 16 routes to its preload map and the worker's refresh to the session: 217.4 to
 *   222.0 KB; 225 until issue 41, whose typed route hooks (the router's getRouteApi in the list state
 *   every list page shares), the shared keys of the counts a legal hold changes and the worker in the
 *   router's context took 224.6 to 225.3 KB; 226 until issue 43, whose six endpoints (a mailbox's
 *   archived events, contacts and tasks browsed, opened and downloaded, an event's eDiscovery preview
 *   and file, a list's csv), the items split by kind on every figure, what a job includes and the
 *   mailbox page's tab in its address took 225.6 to 227.4 KB; the catalogue's scopes are left out like
 *   its documentation); the classic script index.html runs first (the
 *   boot script of the prerendered sign-in page, scripts/prerender.ts, which loads the entry) is
 *   printed beside that figure, outside the budget;
 * - no JavaScript chunk over 500 KB minified;
 * - xlsx, papaparse, the charts (src/components/ui/charts.tsx) and the QR code (qrcode.react) only in
 *   chunks outside the entry's static import graph (loaded when used);
 * - no file the service worker precaches (the manifest in dist/sw.js) over 2 MB, and no file of the
 *   app shell left out of the precache for its size;
 * - none of the SDK catalogue's documentation (endpoint summaries, refusal texts, schema descriptions)
 *   in the chunks that hold the SDK: only its OpenAPI document needs it, and build/strip-sdk-docs.ts
 *   drops it (and the endpoints' scopes, which only the server reads) from the bundle.
 * Prints the figures and exits 1 when a budget is exceeded. 1 KB = 1000 bytes, as Vite reports.
 * Usage: node bench/budgets.mjs [--dist path/to/dist] [--verbose]
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

const KB = 1000;
const BUDGETS = {
  initialGzip: 228 * KB,
  chunkMinified: 500 * KB,
  precachedFile: 2 * KB * KB,
};
/** What must load only when used: a node_modules package or a source file, as named in sourcemaps. */
const LAZY = [
  { label: 'xlsx', package: 'xlsx' },
  { label: 'papaparse', package: 'papaparse' },
  { label: 'charts', source: 'src/components/ui/charts.tsx' },
  { label: 'qrcode.react', package: 'qrcode.react' },
];
/** The route files (src/routes) whose split chunks render each page reported beside the entry. */
const ROUTES = {
  '/signin': ['signin.tsx'],
  '/ (overview)': ['_app.tsx', '_app/_worker.tsx', '_app/_worker/index.tsx'],
};

const { values } = parseArgs({
  options: {
    dist: { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
});
const webRoot = resolve(import.meta.dirname, '..');
const dist = values.dist ? resolve(values.dist) : join(webRoot, 'dist');
/** Budgets missed and files the checks could not read: each fails the run. */
const failures = [];
const problems = [];
const fail = (message) => problems.push(message);

const manifestPath = join(dist, '.vite', 'manifest.json');
if (!existsSync(manifestPath)) {
  console.error(`${manifestPath} is missing: build first (vite build with build.manifest: true)`);
  process.exit(1);
}
/** @type {Record<string, {file: string, src?: string, isEntry?: boolean, imports?: string[], dynamicImports?: string[], css?: string[]}>} */
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));

// ---- sizes and contents of the files ----
const sizeCache = new Map();
/** Minified (as on disk) and gzip (level 9, as build/precompress.ts writes it) bytes of a dist file. */
function sizes(file) {
  let found = sizeCache.get(file);
  if (!found) {
    const bytes = readFileSync(join(dist, file));
    found = { min: bytes.length, gz: gzipSync(bytes, { level: 9 }).length };
    sizeCache.set(file, found);
  }
  return found;
}

/** The package a sourcemap source belongs to ('react-dom', '@chakra-ui/react'), or null for our own code. */
function packageOf(source) {
  const at = source.lastIndexOf('node_modules/');
  if (at < 0) return null;
  const parts = source.slice(at + 'node_modules/'.length).split('/');
  return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
}

/** Packages and own source files (relative to packages/, e.g. 'web/src/main.tsx') inside a chunk. */
const contentsCache = new Map();
function contents(file) {
  let found = contentsCache.get(file);
  if (found) return found;
  const mapPath = join(dist, `${file}.map`);
  // Rolldown's runtime chunk holds no module of ours or of a package, so it has no sourcemap; nor
  // has the sign-in page's boot script (written by scripts/prerender.ts, no module either).
  if (!existsSync(mapPath) && /(^|\/)(rolldown-runtime|signin-boot)-[\w-]+\.js$/.test(file)) {
    found = { packages: new Set(), sources: new Set(), chakraKeys: new Set() };
  } else if (!existsSync(mapPath)) {
    fail(`${file}.map is missing: the check of what loads when needs sourcemaps (build.sourcemap: true)`);
    found = { packages: new Set(), sources: new Set(), chakraKeys: new Set() };
  } else {
    const map = JSON.parse(readFileSync(mapPath, 'utf8'));
    const base = resolve(dist, file, '..', map.sourceRoot ?? '');
    found = { packages: new Set(), sources: new Set(), chakraKeys: new Set() };
    (map.sources ?? []).forEach((source, index) => {
      const name = packageOf(source);
      if (name) found.packages.add(name);
      else found.sources.add(relative(webRoot, resolve(base, source)).replaceAll('\\', '/'));
      // The theme recipe a Chakra component styles itself with (createRecipeContext({ key: "button" })).
      if (name === '@chakra-ui/react' && source.includes('/components/')) {
        for (const match of (map.sourcesContent?.[index] ?? '').matchAll(/\bkey: "(\w+)"/g))
          found.chakraKeys.add(match[1]);
      }
    });
  }
  contentsCache.set(file, found);
  return found;
}

/**
 * The recipe keys Chakra's default theme defines (theme/recipes.js and theme/slot-recipes.js), and
 * those src/app/theme.ts gives the system: all of them when it builds on `defaultConfig`, else the
 * `key: somethingRecipe` entries it lists.
 */
function readChakraRecipes() {
  const available = new Set();
  const chakraRoot = dirname(createRequire(join(webRoot, 'package.json')).resolve('@chakra-ui/react/package.json'));
  for (const file of ['recipes.js', 'slot-recipes.js']) {
    const text = readFileSync(join(chakraRoot, 'dist', 'esm', 'theme', file), 'utf8');
    const list = text.slice(text.lastIndexOf('= {'));
    for (const match of list.matchAll(/^\s*(\w+): \w+Recipe,?$/gm)) available.add(match[1]);
  }
  const theme = readFileSync(join(webRoot, 'src', 'app', 'theme.ts'), 'utf8');
  const themed = /import\s*{[^}]*\bdefault(Config|System)\b[^}]*}\s*from '@chakra-ui\/react'/.test(theme)
    ? new Set(available)
    : new Set([...theme.matchAll(/^\s*(\w+): \w+Recipe,?$/gm)].map((match) => match[1]));
  if (available.size === 0) fail("no recipe found in @chakra-ui/react's theme: update readChakraRecipes()");
  return { available, themed };
}
const chakraRecipes = readChakraRecipes();

// ---- the static import graphs ----
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry && key.endsWith('index.html'));
if (!entryKey) {
  console.error('no entry for index.html in the Vite manifest');
  process.exit(1);
}

/** Manifest keys reached from `starts` through static imports. */
function staticGraph(starts) {
  const seen = new Set();
  const queue = [...starts];
  while (queue.length > 0) {
    const key = queue.shift();
    if (seen.has(key) || !manifest[key]) continue;
    seen.add(key);
    queue.push(...(manifest[key].imports ?? []));
  }
  return seen;
}

/** The JS and CSS files of a set of manifest keys (plus the entry's, when `also` is given). */
function filesOf(keys) {
  const js = new Set();
  const css = new Set();
  for (const key of keys) {
    js.add(manifest[key].file);
    for (const sheet of manifest[key].css ?? []) css.add(sheet);
  }
  return { js: [...js], css: [...css] };
}

/** CSS and scripts index.html loads itself (stylesheets outside the manifest's chunks, if any). */
const indexHtml = readFileSync(join(dist, 'index.html'), 'utf8');
const htmlCss = [...indexHtml.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="\/?([^"]+)"/g)].map((m) => m[1]);

const entryGraph = staticGraph([entryKey]);
const entryFiles = filesOf(entryGraph);
for (const sheet of htmlCss) if (!entryFiles.css.includes(sheet)) entryFiles.css.push(sheet);

const total = (files) =>
  files.reduce(
    (sum, file) => {
      const s = sizes(file);
      return { min: sum.min + s.min, gz: sum.gz + s.gz };
    },
    { min: 0, gz: 0 },
  );

// ---- printing ----
const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;
const pad = (text, width) => String(text).padEnd(width);
const padStart = (text, width) => String(text).padStart(width);
function table(rows) {
  const width = Math.max(40, ...rows.map((r) => r.name.length + 2));
  console.log(`  ${pad('file', width)}${padStart('min', 12)}${padStart('gzip', 12)}`);
  for (const r of rows) console.log(`  ${pad(r.name, width)}${padStart(kb(r.min), 12)}${padStart(kb(r.gz), 12)}`);
}
const check = (ok, text) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${text}`);
  if (!ok) failures.push(text);
};

console.log(`budgets of ${dist} (1 KB = 1000 bytes; gzip level 9)`);

// 1. Before the first route renders.
console.log(`\nthe entry (${manifest[entryKey].file}) and its static imports: what loads before any route renders`);
const entryRows = [...entryFiles.js, ...entryFiles.css]
  .map((file) => ({ name: file, ...sizes(file) }))
  .sort((a, b) => b.min - a.min);
table(entryRows);
const entryTotal = total([...entryFiles.js, ...entryFiles.css]);
const entryJs = total(entryFiles.js);
console.log(
  `  total: ${entryRows.length} files, ${kb(entryTotal.min)} min, ${kb(entryTotal.gz)} gzip (JavaScript ${kb(entryJs.gz)} gzip, CSS ${kb(entryTotal.gz - entryJs.gz)} gzip)`,
);
// Classic scripts index.html runs before the entry (the prerendered sign-in page's boot script).
const classicScripts = [
  ...readFileSync(join(dist, 'index.html'), 'utf8').matchAll(/<script(?![^>]*type="module")[^>]*\ssrc="\/([^"]+)"/g),
]
  .map((match) => match[1])
  .filter((file) => existsSync(join(dist, file)));
for (const file of classicScripts) {
  console.log(
    `  plus ${file}, run by index.html before the entry: ${kb(sizes(file).min)} min, ${kb(sizes(file).gz)} gzip (outside the budget)`,
  );
}
if (values.verbose) {
  for (const file of entryFiles.js) console.log(`  ${file}: ${[...contents(file).packages].sort().join(', ')}`);
}

// The entry plus each reported page's route chunks and their static imports.
console.log("\nthe entry graph with a page's route chunks (what loads before that page renders, cold)");
for (const [path, routeFiles] of Object.entries(ROUTES)) {
  const keys = Object.keys(manifest).filter((key) =>
    routeFiles.some((f) => (manifest[key].src ?? key).split('?')[0] === `src/routes/${f}`),
  );
  const missing = routeFiles.filter(
    (f) => !keys.some((key) => (manifest[key].src ?? key).split('?')[0] === `src/routes/${f}`),
  );
  if (missing.length > 0) {
    fail(`route files of ${path} not in the manifest: ${missing.join(', ')} (update ROUTES in bench/budgets.mjs)`);
    continue;
  }
  const graph = staticGraph(keys);
  const files = filesOf(graph);
  const extraJs = files.js.filter((f) => !entryFiles.js.includes(f));
  const extraCss = files.css.filter((f) => !entryFiles.css.includes(f));
  const extra = total([...extraJs, ...extraCss]);
  const all = { min: entryTotal.min + extra.min, gz: entryTotal.gz + extra.gz };
  console.log(
    `  ${pad(path, 14)} + ${extraJs.length + extraCss.length} files (${kb(extra.min)} min, ${kb(extra.gz)} gzip) = ${kb(all.min)} min, ${kb(all.gz)} gzip`,
  );
}

// 2. Every chunk.
const assets = join(dist, 'assets');
const allJs = readdirSync(assets)
  .filter((f) => f.endsWith('.js'))
  .map((f) => ({ name: `assets/${f}`, ...sizes(`assets/${f}`) }))
  .sort((a, b) => b.min - a.min);
console.log(`\nthe largest chunks (${allJs.length} JavaScript files in assets/)`);
table(allJs.slice(0, 5));

// 3. What loads only when used.
console.log('\nwhere the libraries loaded on use live');
const entrySet = new Set(entryFiles.js);
const lazyResults = [];
for (const item of LAZY) {
  const holders = allJs
    .map((chunk) => chunk.name)
    .filter((file) => {
      const c = contents(file);
      return item.package ? c.packages.has(item.package) : c.sources.has(item.source);
    });
  const inEntry = holders.filter((file) => entrySet.has(file));
  lazyResults.push({ item, holders, inEntry });
  const where =
    holders.length === 0
      ? 'not in the build'
      : holders.map((file) => `${file} (${kb(sizes(file).min)} min, ${kb(sizes(file).gz)} gzip)`).join(', ');
  console.log(`  ${pad(item.label, 14)} ${where}${inEntry.length > 0 ? '  <- IN THE ENTRY GRAPH' : ''}`);
}

// 4. The precache.
const swPath = join(dist, 'sw.js');
const precached = [];
if (!existsSync(swPath)) {
  fail('dist/sw.js is missing: the service worker was not generated');
} else {
  const sw = readFileSync(swPath, 'utf8');
  const call = sw.indexOf('precacheAndRoute(');
  if (call < 0) fail('no precacheAndRoute([...]) in dist/sw.js: cannot read the precache manifest');
  else {
    const list = sw.slice(call, sw.indexOf(']', call));
    for (const match of list.matchAll(/url:\s*"([^"]+)"/g)) precached.push(match[1]);
    if (precached.length === 0) fail('the precache manifest in dist/sw.js lists no file');
  }
}
const precacheRows = precached
  .map((url) => {
    const file = url.replace(/^\//, '').split('?')[0];
    return { name: file, min: existsSync(join(dist, file)) ? statSync(join(dist, file)).size : Number.NaN };
  })
  .sort((a, b) => b.min - a.min);
for (const row of precacheRows) if (Number.isNaN(row.min)) fail(`precached ${row.name} is not in dist/`);
const precacheTotal = precacheRows.reduce((sum, r) => sum + (r.min || 0), 0);
const largestPrecached = precacheRows[0];
// Workbox leaves out (with only a build warning) a file over maximumFileSizeToCacheInBytes: the app
// shell's files (the globPatterns of vite.config.ts) must all be in the precache.
const SHELL = /\.(js|css|html|png|svg|webmanifest)$/;
const shellFiles = [];
const walk = (dir) => {
  for (const entry of readdirSync(join(dist, dir), { withFileTypes: true })) {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.')) walk(path);
    } else if (SHELL.test(entry.name)) shellFiles.push(path);
  }
};
walk('');
const precachedSet = new Set(precacheRows.map((r) => r.name));
const leftOut = shellFiles.filter((f) => !precachedSet.has(f) && f !== 'sw.js' && !/^workbox-[\w-]+\.js$/.test(f));
console.log(
  `\nthe precache (dist/sw.js): ${precacheRows.length} files, ${kb(precacheTotal)}; largest ${largestPrecached?.name} ${kb(largestPrecached?.min ?? 0)}`,
);
if (leftOut.length > 0) console.log(`  app shell files not precached: ${leftOut.join(', ')}`);

// 5. The Chakra recipes (src/app/theme.ts lists only the recipes the portal's components use).
const chakraKeys = new Set(allJs.flatMap((chunk) => [...contents(chunk.name).chakraKeys]));
const missingRecipes = [...chakraKeys].filter(
  (key) => chakraRecipes.available.has(key) && !chakraRecipes.themed.has(key),
);

// 6. The SDK catalogue's documentation, read from the SDK as built (the web's dependency).
const resolveFromWeb = createRequire(join(webRoot, 'package.json'));
const sdkDist = `${relative(webRoot, join(dirname(resolveFromWeb.resolve('@compliance-portal/sdk/package.json')), 'dist')).replaceAll('\\', '/')}/`;
const { endpoints } = await import(pathToFileURL(resolveFromWeb.resolve('@compliance-portal/sdk')).href);
const docTexts = new Set();
function schemaTexts(schema) {
  if (typeof schema !== 'object' || schema === null) return;
  if (typeof schema.description === 'string') docTexts.add(schema.description);
  for (const value of Object.values(schema.properties ?? {})) schemaTexts(value);
  for (const part of [schema.items, schema.additionalProperties, ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) {
    schemaTexts(part);
  }
}
for (const endpoint of endpoints) {
  docTexts.add(endpoint.summary);
  // The texts by status; `emptyBody401` names a wire fact ('empty', 'challenge'), not documentation.
  for (const [status, text] of Object.entries(endpoint.refusals ?? {})) if (/^\d{3}$/.test(status)) docTexts.add(text);
  for (const schema of [endpoint.params, endpoint.query, endpoint.body, endpoint.response]) schemaTexts(schema);
}
/** Texts found as string literals (in any of the quotes a minifier writes) in a chunk holding the SDK. */
const bundledDocs = [];
for (const chunk of allJs) {
  if (![...contents(chunk.name).sources].some((source) => source.startsWith(sdkDist))) continue;
  const code = readFileSync(join(dist, chunk.name), 'utf8');
  for (const text of docTexts) {
    if (['"', "'", '`'].some((quote) => code.includes(`${quote}${text}${quote}`))) bundledDocs.push({ text, chunk });
  }
}

// ---- the verdict ----
console.log('\nbudgets');
check(
  entryTotal.gz <= BUDGETS.initialGzip,
  `before the first route renders: ${kb(entryTotal.gz)} gzip (budget ${kb(BUDGETS.initialGzip)})`,
);
const overChunks = allJs.filter((c) => c.min > BUDGETS.chunkMinified);
check(
  overChunks.length === 0,
  `largest chunk: ${allJs[0].name} ${kb(allJs[0].min)} min (budget ${kb(BUDGETS.chunkMinified)} per chunk)${
    overChunks.length > 1 ? `; over: ${overChunks.map((c) => c.name).join(', ')}` : ''
  }`,
);
for (const { item, holders, inEntry } of lazyResults) {
  const state = inEntry.length > 0 ? `no, in ${inEntry.join(', ')}` : holders.length > 0 ? 'yes' : 'yes (not bundled)';
  check(inEntry.length === 0, `${item.label} loads only when used: ${state}`);
}
check(
  (largestPrecached?.min ?? 0) <= BUDGETS.precachedFile,
  `largest precached file: ${largestPrecached?.name} ${kb(largestPrecached?.min ?? 0)} (budget ${kb(BUDGETS.precachedFile)})`,
);
const tooBigToPrecache = leftOut.filter((f) => statSync(join(dist, f)).size > BUDGETS.precachedFile);
check(
  tooBigToPrecache.length === 0,
  `app shell files left out of the precache for their size: ${tooBigToPrecache.join(', ') || 'none'}`,
);
check(
  missingRecipes.length === 0,
  `Chakra recipes of the bundled components in src/app/theme.ts: ${
    missingRecipes.length > 0 ? `missing ${missingRecipes.join(', ')} (these render unstyled)` : 'all'
  }`,
);
check(
  bundledDocs.length === 0,
  `the SDK catalogue's documentation in the bundle: ${
    bundledDocs.length === 0
      ? `none of ${docTexts.size} texts`
      : `${bundledDocs.length} of ${docTexts.size} texts, e.g. "${bundledDocs[0].text}" in ${bundledDocs[0].chunk.name} (written in a form build/strip-sdk-docs.ts does not drop?)`
  }`,
);
for (const problem of problems) console.log(`FAIL ${problem}`);

const missed = failures.length + problems.length;
console.log(missed === 0 ? '\nall budgets met' : `\n${missed} budget(s) missed`);
process.exit(missed === 0 ? 0 : 1);
