import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, posix } from 'node:path';
import MagicString, { type SourceMap } from 'magic-string';
import { type ESTree, normalizePath, type Plugin, parseAst, Visitor } from 'vite';

/**
 * Where a module's top-level functions take documentation: by function, the index of its
 * `description` parameter (a description given by position, as the schema builders of core/schema.js
 * and helpers such as `guid(description)` take it) and of its `options` parameter (of the schema
 * builders: an object whose `description` and `examples` are documentation). Read from the functions
 * themselves, so a new builder or helper, or a changed signature, needs no change here.
 */
export interface Signatures {
  readonly description: ReadonlyMap<string, number>;
  readonly options: ReadonlyMap<string, number>;
}

type FunctionNode = ESTree.Function | ESTree.ArrowFunctionExpression;

/** The index of a function's parameter of this name (`name` or `name = default`), if it has one. */
function paramIndex(fn: FunctionNode, name: string): number | undefined {
  const index = fn.params.findIndex(
    (param) =>
      (param.type === 'Identifier' && param.name === name) ||
      (param.type === 'AssignmentPattern' && param.left.type === 'Identifier' && param.left.name === name),
  );
  return index < 0 ? undefined : index;
}

/**
 * The functions a module declares at its top level (`function f() {}`, `const f = () => {}`), exported
 * or not, by name.
 */
function topLevelFunctions(program: ESTree.Program): Map<string, FunctionNode> {
  const found = new Map<string, FunctionNode>();
  for (const item of program.body) {
    const statement = item.type === 'ExportNamedDeclaration' ? item.declaration : item;
    if (statement?.type === 'FunctionDeclaration' && statement.id) found.set(statement.id.name, statement);
    if (statement?.type !== 'VariableDeclaration') continue;
    for (const declarator of statement.declarations) {
      const init = declarator.init;
      if (declarator.id.type !== 'Identifier' || !init) continue;
      if (init.type === 'ArrowFunctionExpression' || init.type === 'FunctionExpression') {
        found.set(declarator.id.name, init);
      }
    }
  }
  return found;
}

export function readSignatures(code: string): Signatures {
  const description = new Map<string, number>();
  const options = new Map<string, number>();
  for (const [name, fn] of topLevelFunctions(parseAst(code))) {
    const describedAt = paramIndex(fn, 'description');
    if (describedAt !== undefined) description.set(name, describedAt);
    const optionsAt = paramIndex(fn, 'options');
    if (optionsAt !== undefined) options.set(name, optionsAt);
  }
  return { description, options };
}

/**
 * Text written out in the code, whose value needs nothing run: a string literal, a template literal,
 * or a concatenation, of literals and names (`at most ${MAX_PAGE_SIZE}`).
 */
function isText(node: ESTree.Node): boolean {
  const part = (operand: ESTree.Node) => operand.type === 'Literal' || operand.type === 'Identifier' || isText(operand);
  if (node.type === 'Literal') return typeof node.value === 'string';
  if (node.type === 'TemplateLiteral') return node.expressions.every(part);
  if (node.type === 'BinaryExpression') {
    return node.operator === '+' && part(node.left) && part(node.right) && (isText(node.left) || isText(node.right));
  }
  return false;
}

/** Plain data written out (literals, arrays and objects of literals): dropping it drops no side effect. */
function isStaticData(node: ESTree.Node | null): boolean {
  if (node === null) return false;
  if (node.type === 'Literal' || isText(node)) return true;
  if (node.type === 'UnaryExpression') return node.operator === '-' && node.argument.type === 'Literal';
  if (node.type === 'ArrayExpression') return node.elements.every(isStaticData);
  if (node.type === 'ObjectExpression') {
    return node.properties.every(
      (property) =>
        property.type === 'Property' &&
        property.kind === 'init' &&
        !property.computed &&
        !property.method &&
        isStaticData(property.value),
    );
  }
  return false;
}

function keyName(property: ESTree.ObjectPropertyKind): string | undefined {
  if (property.type !== 'Property' || property.computed || property.shorthand) return undefined;
  if (property.key.type === 'Identifier') return property.key.name;
  if (property.key.type === 'Literal' && typeof property.key.value === 'string') return property.key.value;
  return undefined;
}

/** Documentation properties by name, each with the kind of value it may be dropped with. */
const SCHEMA_DOCS: Record<string, (value: ESTree.Node) => boolean> = {
  description: isText,
  examples: isStaticData,
};
const ENDPOINT_DOCS: Record<string, (value: ESTree.Node) => boolean> = {
  summary: isText,
  refusals: (value) => value.type === 'ObjectExpression' && isStaticData(value),
  // What an endpoint acts on, which the server resolves and the OpenAPI document states: the SDK's
  // client never reads it, so the browser need not download it.
  scope: isStaticData,
};

/**
 * The code of one module of the SDK's dist without the catalogue's documentation, with its sourcemap,
 * or null when it has none: `summary`, `refusals` and `scope` of the definitions given to `defineResource`
 * (core/endpoint.js), the descriptions and examples in the options of the schema builders
 * (core/schema.js), and the descriptions given by position to any function of the SDK, or of the
 * module itself, whose parameter is named `description`. Only text written out in the code goes; a
 * value computed at run time, and any property elsewhere that happens to share a name, stay.
 * A module outside `sdkDist` is left as it is. `signaturesOf` reads another module of the SDK's dist
 * (an absolute path with `/`).
 */
export function stripDocs(
  code: string,
  id: string,
  sdkDist: string,
  signaturesOf: (module: string) => Signatures | undefined,
): { code: string; map: SourceMap } | null {
  if (!id.startsWith(`${sdkDist}/`)) return null;
  const program = parseAst(code);
  const schemaModule = `${sdkDist}/core/schema.js`;
  const endpointModule = `${sdkDist}/core/endpoint.js`;

  // What the module imports from the SDK's other modules (`import * as s`, `import { x as y }`), and
  // its own functions that take a description (`const guid = (description) => …`).
  const namespaces = new Map<string, string>();
  const named = new Map<string, { module: string; name: string }>();
  for (const statement of program.body) {
    if (statement.type !== 'ImportDeclaration' || !statement.source.value.startsWith('.')) continue;
    const module = posix.resolve(posix.dirname(id), statement.source.value);
    if (!module.startsWith(`${sdkDist}/`)) continue;
    for (const specifier of statement.specifiers) {
      if (specifier.type === 'ImportNamespaceSpecifier') namespaces.set(specifier.local.name, module);
      else if (specifier.type === 'ImportSpecifier') {
        const name = specifier.imported.type === 'Identifier' ? specifier.imported.name : specifier.imported.value;
        named.set(specifier.local.name, { module, name });
      }
    }
  }
  const own = readSignatures(code);
  if (namespaces.size === 0 && named.size === 0 && own.description.size === 0) return null;

  const callee = (node: ESTree.CallExpression): { module: string; name: string } | undefined => {
    const target = node.callee;
    if (target.type === 'Identifier') {
      return (
        named.get(target.name) ?? (own.description.has(target.name) ? { module: id, name: target.name } : undefined)
      );
    }
    if (target.type === 'MemberExpression' && !target.computed && target.object.type === 'Identifier') {
      const module = namespaces.get(target.object.name);
      if (module && target.property.type === 'Identifier') return { module, name: target.property.name };
    }
    return undefined;
  };

  const edit = new MagicString(code);
  // A property goes with what follows it up to the next property (or the closing brace): the comma
  // before it then separates its neighbours, or stays as a trailing comma.
  const dropProperties = (object: ESTree.Node | undefined, docs: typeof SCHEMA_DOCS) => {
    if (object?.type !== 'ObjectExpression') return;
    object.properties.forEach((property, index) => {
      const name = keyName(property);
      const isDoc = name !== undefined && Object.hasOwn(docs, name) ? docs[name] : undefined;
      if (property.type !== 'Property' || !isDoc?.(property.value)) return;
      const next = object.properties[index + 1];
      edit.remove(property.start, next ? next.start : object.end - 1);
    });
  };

  new Visitor({
    CallExpression(node) {
      const fn = callee(node);
      if (!fn) return;
      const args = node.arguments;
      if (fn.module === endpointModule && fn.name === 'defineResource') {
        const definitions = args[2];
        if (definitions?.type !== 'ObjectExpression') return;
        for (const definition of definitions.properties) {
          if (definition.type === 'Property') dropProperties(definition.value, ENDPOINT_DOCS);
        }
        return;
      }
      const signatures = fn.module === id ? own : signaturesOf(fn.module);
      const optionsAt = fn.module === schemaModule ? signatures?.options.get(fn.name) : undefined;
      if (optionsAt !== undefined) dropProperties(args[optionsAt], SCHEMA_DOCS);
      const describedAt = signatures?.description.get(fn.name);
      const description = describedAt === undefined ? undefined : args[describedAt];
      // Only a last argument goes: one after it would otherwise move into its place.
      if (description && description === args.at(-1) && isText(description)) {
        const before = describedAt ? args[describedAt - 1] : undefined;
        edit.remove(before ? before.end : description.start, node.end - 1);
      }
    },
  }).visit(program);

  if (!edit.hasChanged()) return null;
  return { code: edit.toString(), map: edit.generateMap({ source: id, includeContent: true, hires: 'boundary' }) };
}

/** The SDK's built code, as the web resolves `@compliance-portal/sdk`. */
export function sdkDistDir(): string {
  const manifest = createRequire(import.meta.url).resolve('@compliance-portal/sdk/package.json');
  return posix.join(normalizePath(dirname(manifest)), 'dist');
}

/** Reads the signatures of the SDK's modules from disk, each once. */
export function signaturesFromDisk(): (module: string) => Signatures | undefined {
  const read = new Map<string, Signatures | undefined>();
  return (module) => {
    if (!read.has(module))
      read.set(module, existsSync(module) ? readSignatures(readFileSync(module, 'utf8')) : undefined);
    return read.get(module);
  };
}

/**
 * Drops the endpoint catalogue's documentation (endpoint summaries and refusal texts, schema
 * descriptions and examples) from the SDK code the production build bundles. Only the OpenAPI
 * document reads it (the SDK's `openapi` entry, which the PWA does not import); the SDK's published
 * code keeps every text, and so do the web's tests (the plugin applies to `vite build` only).
 */
export function stripSdkDocs(sdkDist = sdkDistDir()): Plugin {
  const dist = normalizePath(sdkDist);
  let signaturesOf = signaturesFromDisk();
  return {
    name: 'portal:strip-sdk-docs',
    apply: 'build',
    buildStart() {
      signaturesOf = signaturesFromDisk();
    },
    transform: {
      filter: { id: new RegExp(`^${dist.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/.+\\.js$`) },
      handler(code, id) {
        return stripDocs(code, normalizePath(id), dist, signaturesOf);
      },
    },
  };
}
