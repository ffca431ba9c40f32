#!/usr/bin/env node
// The house rules a tool can check, counted: where mutations and SDK calls live in the web app, where
// SQL lives in the server, who checks a tenant's scope, which folders import each other, how errors
// are classified. Prints one line per rule with its count and the places that break it, and fails
// (exit 1) when any rule is broken. `--json` prints the counts as JSON instead.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { folderCycles } from './folder-cycles.mjs';

const root = resolve(import.meta.dirname, '..');
const web = join(root, 'packages/web/src');
const server = join(root, 'packages/server/src');

/** Every .ts/.tsx file under `dir`, tests and generated files left out. */
function sources(dir) {
  const out = [];
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) {
        if (name !== 'node_modules' && name !== 'dist') walk(path);
      } else if (/\.tsx?$/.test(name) && !/\.(test|spec)\.tsx?$|\.d\.ts$|\.gen\.ts$/.test(name)) {
        out.push(path);
      }
    }
  };
  walk(dir);
  return out;
}

const text = (path) => readFileSync(path, 'utf8');
const rel = (path) => relative(root, path);
const lineOf = (source, index) => source.slice(0, index).split('\n').length;
const inFolder = (path, folder) => path.split(sep).includes(folder);

/** Each match of `pattern` in the files as `path:line`. */
function places(files, pattern) {
  const found = [];
  for (const file of files) {
    const source = text(file);
    for (const m of source.matchAll(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`))) {
      found.push(`${rel(file)}:${lineOf(source, m.index)}`);
    }
  }
  return found;
}

const webFiles = sources(web);
const featureFiles = webFiles.filter((f) => f.startsWith(join(web, 'features')) || f.startsWith(join(web, 'shared')));
const outsideApi = (files) => files.filter((f) => !inFolder(relative(web, f), 'api'));
const serverFiles = sources(server);
const isRepository = (f) => /(^|-)repository\.ts$/.test(basename(f));
const isRouteFile = (f) => /(^|-)routes\.ts$/.test(basename(f));

const serverManifest = JSON.parse(text(join(root, 'packages/server/package.json')));
const SIMULATOR = '@compliance-portal/m365-simulator';

const rules = [
  {
    rule: 'web: mutations outside an api/ folder',
    found: places(outsideApi(webFiles), /\buseMutation\s*\(/),
  },
  {
    rule: 'web: SDK calls in features and shared code outside an api/ folder',
    found: places(outsideApi(featureFiles), /\.(apollo|legacy)\s*\.\s*[A-Za-z]+\s*\.\s*[A-Za-z]+\s*\(/),
  },
  {
    rule: 'web: query keys written outside a keys.ts',
    found: places(
      webFiles.filter((f) => basename(f) !== 'keys.ts'),
      /queryKey\s*:\s*\[/,
    ),
  },
  {
    rule: 'web: router calls cast with `as never`',
    found: places(
      webFiles.filter((f) => !inFolder(relative(web, f), 'i18n')),
      /\bas never\b/,
    ),
  },
  {
    rule: 'web: search read untyped with a cast',
    found: places(webFiles, /useSearch\s*\(\s*\{\s*strict\s*:\s*false\s*\}\s*\)\s*as\b/),
  },
  {
    rule: 'web: loaders reading the chosen client from storage instead of the router context',
    found: places(
      webFiles.filter((f) => f.startsWith(join(web, 'routes')) || f === join(web, 'app/loaders.ts')),
      /\b(readWorker|loaderTenantId|loaderWorkerIp)\s*\(/,
    ),
  },
  {
    rule: 'server: SQL outside a repository (modules, storage, access, archive data)',
    found: places(
      serverFiles.filter(
        (f) => /^(modules|storage|access|archive-data)$/.test(relative(server, f).split(sep)[0]) && !isRepository(f),
      ),
      /\.query\s*(<|\()/,
    ),
  },
  {
    rule: 'server: src/storage holding SQL',
    found: places(
      serverFiles.filter((f) => relative(server, f).split(sep)[0] === 'storage'),
      /\.query\s*(<|\()/,
    ),
  },
  {
    rule: 'server: transactions opened in a route file',
    found: places(serverFiles.filter(isRouteFile), /\btransaction\s*\(/),
  },
  {
    rule: 'server: tenant or worker scope checked by hand in a route file',
    found: places(serverFiles.filter(isRouteFile), /\b(requireTenant|workerTenant|requireWorker|canActFor)\s*\(/),
  },
  {
    rule: 'server: folder-level import cycles',
    found: folderCycles(server).map(({ edges }) =>
      edges.map((e) => `${e.from} → ${e.to} (${e.imports.length} imports)`).join('; '),
    ),
  },
  {
    rule: 'server: the simulator among the production dependencies',
    found: serverManifest.dependencies?.[SIMULATOR] ? ['packages/server/package.json'] : [],
  },
  {
    // The demo (src/demo) runs the simulator and is itself loaded only in demo mode, by import().
    rule: 'server: production code importing the simulator or the demo',
    found: places(
      serverFiles.filter((f) => relative(server, f).split(sep)[0] !== 'demo'),
      new RegExp(`import\\s+(?!type\\b)[^;]*?from\\s+'(${SIMULATOR}|[./]+demo/[^']*)'`),
    ),
  },
  {
    rule: 'errors classified by testing a URL',
    found: places(
      [
        ...sources(join(root, 'packages/sdk/src/core')),
        ...sources(join(web, 'errors')),
        ...sources(join(web, 'session')),
        join(server, 'http/errors.ts'),
      ],
      /\b(isLegacyUrl|isApollo)\s*\(|\b(url|path|pathname)\)?(\.pathname)?\.(startsWith|endsWith|includes)\s*\(\s*'\/(api|apollo|login)|\b(url|path|pathname)\s*[!=]==?\s*'\/(api|apollo|login)/,
    ),
  },
];

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(Object.fromEntries(rules.map((r) => [r.rule, r.found.length])), null, 2));
} else {
  for (const { rule, found } of rules) {
    console.log(`${String(found.length).padStart(4)}  ${rule}`);
    for (const place of found.slice(0, 15)) console.log(`        ${place}`);
    if (found.length > 15) console.log(`        … and ${found.length - 15} more`);
  }
}
const broken = rules.filter((r) => r.found.length > 0).length;
console.log(`${rules.length - broken} of ${rules.length} rules kept`);
process.exit(broken === 0 ? 0 : 1);
