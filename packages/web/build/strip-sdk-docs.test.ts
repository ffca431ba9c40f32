/**
 * The production build's plugin that drops the SDK catalogue's documentation: what it drops and what it
 * keeps in a module written for the test, its sourcemap, and the SDK as built: every module through
 * the plugin gives the same catalogue and exports as the SDK, less the documentation.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseAst } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import {
  readSignatures,
  type Signatures,
  sdkDistDir,
  signaturesFromDisk,
  stripDocs,
  stripSdkDocs,
} from './strip-sdk-docs';

const SCHEMA = `
export function string(options = {}) { return { type: 'string', ...options }; }
export function dateTime(description) { return string({ format: 'date-time', ...(description ? { description } : {}) }); }
export function literal(value, description) { return description ? { const: value, description } : { const: value }; }
export function object(properties, description) { return { type: 'object', properties, ...(description ? { description } : {}) }; }
`;
const COMMON = `import * as s from '../core/schema.js';
export const count = (description) => s.integer({ minimum: 0, description });
export function page(item) { return s.object({ items: s.array(item) }); }
`;

const MODULE = `import * as s from '../../core/schema.js';
import { dateTime as at, literal } from '../../core/schema.js';
import { defineResource } from '../../core/endpoint.js';
import { count, page } from '../common.js';
import { object, describe } from './elsewhere.js';
import { MAX } from '../limits.js';
const description = 'Kept: a variable named description.';
const guid = (description) => s.string({ pattern: '^[0-9a-f-]{36}$', description });
function tag(text) { return s.string({ description: text }); }
export const Thing = s.object({
  id: guid('The thing’s ID.'),
  label: tag('Kept: not a parameter named description.'),
  total: count('How many.'),
  name: s.string({ maxLength: 10, description: 'The name.' }),
  when: at('When it happened (¹ non-ASCII before an edit).'),
  kind: literal('thing', 'Always thing.'),
  odd: literal('only the value'),
  note: s.string({ description }),
  named: s.string({ description: description }),
  made: s.string({ description: describe('made at run time') }),
  long: s.string({ description: 'Words, ' + \`at most \${MAX}\` + ' of them.', minLength: 1 }),
  description: s.string(),
  sample: s.string({ examples: ['a', 1, { b: [true] }], minLength: 1 }),
}, 'A thing.');
export const other = object({ a: 1 }, 'Not a builder: kept.');
export const pages = page('Kept: not a description parameter.');
export const plain = { description: 'Kept: not given to a builder.', summary: 'Kept too.' };
export const endpoints = defineResource('apollo', 'things', {
  get: {
    method: 'GET',
    summary: 'One thing',
    path: '/things/{id}',
    refusals: { 409: 'Busy.' },
    scope: { tenant: 'path' },
    response: Thing,
  },
  list: { method: 'GET', path: '/things', summary: \`All things\`, },
  computed: { method: 'GET', path: '/c', summary: describe('kept') },
});
`;

const EXPECTED = `import * as s from '../../core/schema.js';
import { dateTime as at, literal } from '../../core/schema.js';
import { defineResource } from '../../core/endpoint.js';
import { count, page } from '../common.js';
import { object, describe } from './elsewhere.js';
import { MAX } from '../limits.js';
const description = 'Kept: a variable named description.';
const guid = (description) => s.string({ pattern: '^[0-9a-f-]{36}$', description });
function tag(text) { return s.string({ description: text }); }
export const Thing = s.object({
  id: guid(),
  label: tag('Kept: not a parameter named description.'),
  total: count(),
  name: s.string({ maxLength: 10, }),
  when: at(),
  kind: literal('thing'),
  odd: literal('only the value'),
  note: s.string({ description }),
  named: s.string({ description: description }),
  made: s.string({ description: describe('made at run time') }),
  long: s.string({ minLength: 1 }),
  description: s.string(),
  sample: s.string({ minLength: 1 }),
});
export const other = object({ a: 1 }, 'Not a builder: kept.');
export const pages = page('Kept: not a description parameter.');
export const plain = { description: 'Kept: not given to a builder.', summary: 'Kept too.' };
export const endpoints = defineResource('apollo', 'things', {
  get: {
    method: 'GET',
    path: '/things/{id}',
    response: Thing,
  },
  list: { method: 'GET', path: '/things', },
  computed: { method: 'GET', path: '/c', summary: describe('kept') },
});
`;

const DIST = '/repo/packages/sdk/dist';
const ID = `${DIST}/resources/apollo/things.js`;

describe('stripDocs', () => {
  const modules = new Map([
    [`${DIST}/core/schema.js`, readSignatures(SCHEMA)],
    [`${DIST}/resources/common.js`, readSignatures(COMMON)],
  ]);
  const signaturesOf = (module: string): Signatures | undefined => modules.get(module);

  it('reads where the functions of a module take a description and an options object', () => {
    const schema = readSignatures(SCHEMA);
    expect(Object.fromEntries(schema.description)).toEqual({ dateTime: 0, literal: 1, object: 1 });
    expect(Object.fromEntries(schema.options)).toEqual({ string: 0 });
    expect(Object.fromEntries(readSignatures(COMMON).description)).toEqual({ count: 0 });
  });

  it('drops the summaries, refusals, scopes, descriptions and examples written out, and nothing else', () => {
    const out = stripDocs(MODULE, ID, DIST, signaturesOf);
    expect(out?.code).toBe(EXPECTED);
    expect(() => parseAst(out?.code ?? '')).not.toThrow();
  });

  it('leaves a module that imports neither the builders nor defineResource, or is not the SDK’s, as it is', () => {
    expect(stripDocs(`export const x = { description: 'x', summary: 'y' };`, ID, DIST, signaturesOf)).toBeNull();
    // A module outside the SDK's dist.
    expect(stripDocs(MODULE, '/repo/packages/web/src/resources/apollo/things.js', DIST, signaturesOf)).toBeNull();
  });

  it('gives a sourcemap that maps what it keeps back to where it was', () => {
    const out = stripDocs(MODULE, ID, DIST, signaturesOf);
    if (!out) throw new Error('nothing stripped');
    expect(out.map.sources).toEqual([ID]);
    expect(out.map.sourcesContent).toEqual([MODULE]);
    const map = new SourceMap(JSON.parse(out.map.toString()));
    const position = (code: string, text: string) => {
      const before = code.slice(0, code.indexOf(text)).split('\n');
      return { line: before.length - 1, column: (before.at(-1) ?? '').length };
    };
    for (const kept of [
      "path: '/things/{id}'",
      'response: Thing',
      "kind: literal('thing'",
      'minLength: 1 }),\n  description',
    ]) {
      const generated = position(out.code, kept);
      const original = position(MODULE, kept);
      expect(map.findEntry(generated.line, generated.column), kept).toMatchObject({
        originalLine: original.line,
        originalColumn: original.column,
      });
    }
  });
});

describe('stripSdkDocs', () => {
  it('applies to the production build only, and to the SDK’s built modules only', () => {
    const plugin = stripSdkDocs(DIST);
    expect(plugin.apply).toBe('build');
    const transform = plugin.transform as { filter: { id: RegExp } };
    expect(transform.filter.id.test(ID)).toBe(true);
    expect(transform.filter.id.test(`${DIST}/core/call.js`)).toBe(true);
    expect(transform.filter.id.test('/repo/packages/sdk/src/core/call.ts')).toBe(false);
    expect(transform.filter.id.test('/repo/packages/web/src/main.tsx')).toBe(false);
  });
});

describe('the SDK as built, through the plugin', () => {
  const dist = sdkDistDir();
  const scratch = mkdtempSync(join(tmpdir(), 'portal-strip-sdk-docs-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  /**
   * Every JavaScript module of the SDK's dist, put through the plugin, in `scratch` (without the
   * sourcemaps, which point to the SDK's sources).
   */
  function stripCopy() {
    const withoutMap = (code: string) => code.replace(/\n\/\/# sourceMappingURL=.*\s*$/, '\n');
    const signaturesOf = signaturesFromDisk();
    let before = 0;
    let after = 0;
    for (const file of readdirSync(dist, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.js')) continue;
      const code = readFileSync(join(dist, file), 'utf8');
      const out = stripDocs(code, `${dist}/${file.replaceAll('\\', '/')}`, dist, signaturesOf);
      before += code.length;
      after += (out?.code ?? code).length;
      mkdirSync(dirname(join(scratch, file)), { recursive: true });
      writeFileSync(join(scratch, file), withoutMap(out?.code ?? code));
    }
    return { before, after };
  }

  /** A schema without its descriptions and examples (a property *named* description stays). */
  function undocumented(schema: unknown): unknown {
    if (Array.isArray(schema)) return schema.map(undocumented);
    if (typeof schema !== 'object' || schema === null) return schema;
    const { description: _d, examples: _e, ...rest } = schema as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(rest)) {
      out[key] =
        key === 'properties'
          ? Object.fromEntries(Object.entries(value as object).map(([name, v]) => [name, undocumented(v)]))
          : key === 'enum' || key === 'required' || key === 'const' || key === 'default'
            ? value
            : undocumented(value);
    }
    return out;
  }

  /** Values compared across two copies of the SDK: functions by their code. */
  const canonical = (value: unknown) =>
    JSON.stringify(value, (_key, v) => (typeof v === 'function' ? `function ${String(v)}` : v));

  it('keeps every endpoint and schema, less their documentation, and every other export as it is', async () => {
    const { before, after } = stripCopy();
    type Sdk = Record<string, unknown> & { endpoints: Record<string, unknown>[] };
    const original = (await import(pathToFileURL(join(dist, 'index.js')).href)) as Sdk;
    const stripped = (await import(pathToFileURL(join(scratch, 'index.js')).href)) as Sdk;

    expect(Object.keys(stripped).sort()).toEqual(Object.keys(original).sort());
    expect(stripped.endpoints.length).toBe(original.endpoints.length);
    stripped.endpoints.forEach((endpoint, index) => {
      const { summary: _s, refusals: _r, scope: _scope, ...rest } = original.endpoints[index] ?? {};
      expect(canonical(endpoint), String(rest.id)).toBe(canonical(undocumented(rest)));
    });
    for (const name of Object.keys(original).filter((key) => key !== 'endpoints')) {
      expect(canonical(stripped[name]), name).toBe(canonical(original[name]));
    }

    // The catalogue's documentation is all gone: no summary, no refusal text, no scope, no description or example.
    expect(
      stripped.endpoints.filter((endpoint) => 'summary' in endpoint || 'refusals' in endpoint || 'scope' in endpoint),
    ).toEqual([]);
    expect(canonical(stripped.endpoints)).toBe(canonical(stripped.endpoints.map(undocumented)));
    expect(after).toBeLessThan(before);
  });
});
