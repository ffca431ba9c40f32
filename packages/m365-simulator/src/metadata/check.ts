/**
 * The referee of the simulator's answers: Microsoft Graph v1.0's published metadata (CSDL). For a
 * request (method and path below /v1.0) and its JSON answer, it resolves the path through the model
 * (entity sets, singletons, keys, navigation and structural properties, casts, bound functions and
 * actions, `$value`, `$count`, media) and checks every property of the answer, recursively, against
 * the declared types: unknown properties (dynamic ones only in an open type that declares none, such as
 * a list item's fieldValueSet), wrong primitive types, nulls where the schema forbids them,
 * enum values outside the members, derived types named by `@odata.type` that do not derive. Error
 * answers are checked against the OData error body Graph sends.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  type CsdlModel,
  type OperationDef,
  type PropertyDef,
  readCsdl,
  type StructuredTypeDef,
  type TypeRef,
} from './csdl.js';

/** Where the published metadata sits in this package (from src/metadata and dist/metadata alike). */
export const GRAPH_METADATA_PATH = fileURLToPath(new URL('../../metadata/graph-v1.0-metadata.xml', import.meta.url));

const cache = new Map<string, CsdlModel>();

/** Graph v1.0's metadata, read once per process (about a third of a second). */
export function graphMetadata(path = GRAPH_METADATA_PATH): CsdlModel {
  let model = cache.get(path);
  if (!model) {
    model = readCsdl(readFileSync(path, 'utf8'));
    cache.set(path, model);
  }
  return model;
}

export interface Mismatch {
  /** JSON pointer into the answer, e.g. /value/3/file/hashes. */
  pointer: string;
  reason: string;
}

export interface CheckResult {
  /** The answer's type as the path resolves, e.g. Collection(microsoft.graph.user). */
  expected: string;
  /** Property values checked, nested ones included. */
  properties: number;
  mismatches: Mismatch[];
}

/** What a path addresses. */
export type Resolved =
  | { kind: 'entity' | 'complex' | 'primitive' | 'enum'; type: TypeRef; operation: boolean }
  /** A media value; `owner` is the entity it belongs to (what a PUT or POST of it answers). */
  | { kind: 'stream'; owner: TypeRef }
  | { kind: 'count' }
  | { kind: 'none' }
  | { kind: 'error'; reason: string };

const GRAPH = 'microsoft.graph';

export class GraphSchema {
  constructor(readonly model: CsdlModel = graphMetadata()) {}

  /** The type and its base types, nearest first. */
  lineage(name: string): StructuredTypeDef[] {
    const out: StructuredTypeDef[] = [];
    for (let t = this.model.types.get(name); t; t = t.baseType ? this.model.types.get(t.baseType) : undefined)
      out.push(t);
    return out;
  }

  derivesFrom(name: string, base: string): boolean {
    return this.lineage(name).some((t) => t.name === base);
  }

  property(typeName: string, name: string): PropertyDef | undefined {
    for (const t of this.lineage(typeName)) {
      const p = t.properties.get(name);
      if (p) return p;
    }
    return undefined;
  }

  /** A bound function or action of that name taking the current value as its binding parameter. */
  operation(name: string, current: TypeRef): OperationDef | undefined {
    const short = name.startsWith(`${GRAPH}.`) ? name.slice(GRAPH.length + 1) : name;
    const candidates = this.model.boundOperations.get(short) ?? [];
    // The most derived binding type wins (driveItem's delta before baseItem's, if both existed).
    let best: { op: OperationDef; depth: number } | undefined;
    for (const op of candidates) {
      if (!op.binding || op.binding.collection !== current.collection) continue;
      const depth = this.lineage(current.name).findIndex((t) => t.name === op.binding?.name);
      if (depth >= 0 && (!best || depth < best.depth)) best = { op, depth };
    }
    return best?.op;
  }

  private kindOf(type: TypeRef): 'entity' | 'complex' | 'primitive' | 'enum' {
    if (this.model.enums.has(type.name)) return 'enum';
    const t = this.model.types.get(type.name);
    if (!t) return 'primitive';
    return t.kind;
  }

  /**
   * Resolves a request path below the service root (`/users/{id}/drive/root/children`). Paths that
   * address a drive item by its path (`root:/a/b:`, `items/{id}:/name:`) are read as the item itself.
   */
  resolve(path: string): Resolved {
    const clean = path
      .split('?')[0]
      ?.replace(/^\/?v1\.0/, '')
      .replace(/:\/[^:]*(?::(?=\/|$)|$)/g, '');
    const segments = (clean ?? '')
      .split('/')
      .filter(Boolean)
      .map((s) => decodeURIComponent(s));
    const [first, ...rest] = segments;
    if (!first) return { kind: 'error', reason: 'the service root is not a resource' };
    const setType = this.model.entitySets.get(first);
    const singletonType = this.model.singletons.get(first);
    if (!setType && !singletonType) return { kind: 'error', reason: `'${first}' is not an entity set or singleton` };
    let current: TypeRef = { name: setType ?? singletonType ?? '', collection: Boolean(setType) };
    let kind: 'entity' | 'complex' | 'primitive' | 'enum' = 'entity';
    let operation = false;
    for (const raw of rest) {
      const segment = raw.replace(/\(.*\)$/, '');
      if (segment === '$count') return { kind: 'count' };
      if (segment === '$value') {
        const hasStream = this.lineage(current.name).some((t) => t.hasStream);
        if (!current.collection && (hasStream || kind === 'primitive')) return { kind: 'stream', owner: current };
        return { kind: 'error', reason: `${current.name} has no media value ($value)` };
      }
      if (kind === 'primitive' || kind === 'enum')
        return { kind: 'error', reason: `nothing follows a primitive value ('${segment}')` };
      // A cast to a derived type.
      if (segment.includes('.') && this.model.types.has(segment)) {
        if (!this.derivesFrom(segment, current.name)) {
          return { kind: 'error', reason: `${segment} does not derive from ${current.name}` };
        }
        current = { name: segment, collection: current.collection };
        operation = false;
        continue;
      }
      const op = this.operation(segment, current);
      if (op) {
        if (!op.returnType) return { kind: 'none' };
        current = op.returnType;
        kind = this.kindOf(current);
        operation = true;
        continue;
      }
      operation = false;
      if (current.collection) {
        // A key: one member of the collection.
        current = { name: current.name, collection: false };
        continue;
      }
      const property = this.property(current.name, segment);
      if (!property)
        return { kind: 'error', reason: `'${segment}' is not a property, navigation or operation of ${current.name}` };
      if (property.type.name === 'Edm.Stream') return { kind: 'stream', owner: current };
      current = property.type;
      kind = this.kindOf(current);
    }
    return { kind, type: current, operation };
  }

  /** Checks one answer; `path` is below the service root, with or without /v1.0 and a query. */
  check(answer: { method: string; path: string; status: number; json: unknown }): CheckResult {
    const result: CheckResult = { expected: '', properties: 0, mismatches: [] };
    const miss = (pointer: string, reason: string) => result.mismatches.push({ pointer, reason });
    if (answer.status >= 400) {
      result.expected = 'odata.error';
      this.checkError(answer.json, result);
      return result;
    }
    const resolved = this.resolve(answer.path);
    if (resolved.kind === 'error') {
      miss('', `the path is not in the model: ${resolved.reason}`);
      return result;
    }
    // Writing a media value (PUT …/content) answers the entity it belongs to.
    const target: Resolved =
      resolved.kind === 'stream' && answer.method !== 'GET' && answer.json !== undefined
        ? { kind: 'entity', type: resolved.owner, operation: false }
        : resolved;
    if (target.kind === 'stream' || target.kind === 'count' || target.kind === 'none') {
      result.expected = target.kind;
      if (answer.json !== undefined) miss('', `a ${target.kind} answer is not JSON`);
      return result;
    }
    const body = answer.json;
    if (!isObject(body)) {
      miss('', 'the answer is not a JSON object');
      return result;
    }
    if (typeof body['@odata.context'] !== 'string') miss('/@odata.context', 'missing @odata.context');
    // POST to a collection creates one member of it.
    const type =
      answer.method === 'POST' && target.type.collection && target.kind === 'entity' && !target.operation
        ? { name: target.type.name, collection: false }
        : target.type;
    result.expected = type.collection ? `Collection(${type.name})` : type.name;
    if (type.collection || target.kind === 'primitive' || target.kind === 'enum') {
      // A collection, or a primitive value, is wrapped in `value` with annotations beside it.
      for (const [key, value] of Object.entries(body)) {
        if (key === 'value') continue;
        if (!key.startsWith('@')) miss(`/${pointerPart(key)}`, `'${key}' beside 'value' in a collection answer`);
        else this.checkAnnotation(key, value, `/${pointerPart(key)}`, result);
      }
      if (!('value' in body)) miss('/value', 'missing value');
      else this.checkValue(body.value, type, false, '/value', result, true);
      return result;
    }
    this.checkStructured(body, type.name, '', result);
    return result;
  }

  private checkAnnotation(key: string, value: unknown, pointer: string, result: CheckResult) {
    const miss = (reason: string) => result.mismatches.push({ pointer, reason });
    if (!key.startsWith('@odata.') && !key.startsWith('@microsoft.graph.') && key !== '@removed') {
      miss(`'${key}' is not an OData or Microsoft Graph instance annotation`);
      return;
    }
    if (/^@odata\.(context|nextLink|deltaLink|id|editLink|readLink|mediaReadLink|mediaEditLink)$/.test(key)) {
      if (typeof value !== 'string') miss(`${key} is not a string`);
    } else if (key === '@odata.count' && !Number.isInteger(value)) miss('@odata.count is not an integer');
    else if (key === '@odata.etag' && typeof value !== 'string') miss('@odata.etag is not a string');
    else if (key === '@microsoft.graph.downloadUrl' && !(typeof value === 'string' && /^https?:\/\//.test(value)))
      miss('@microsoft.graph.downloadUrl is not a URL');
    else if (key === '@removed' && !isObject(value)) miss('@removed is not an object');
  }

  private checkStructured(value: Record<string, unknown>, declared: string, pointer: string, result: CheckResult) {
    const miss = (at: string, reason: string) => result.mismatches.push({ pointer: at, reason });
    let typeName = declared;
    const named = value['@odata.type'];
    if (named !== undefined) {
      const name = typeof named === 'string' ? named.replace(/^#/, '') : '';
      const full = name.includes('.') ? name : `${GRAPH}.${name}`;
      if (!this.model.types.has(full)) miss(`${pointer}/@odata.type`, `${String(named)} is not a type of the model`);
      else if (!this.derivesFrom(full, declared))
        miss(`${pointer}/@odata.type`, `${full} does not derive from ${declared}`);
      else typeName = full;
    }
    const def = this.model.types.get(typeName);
    if (!def) {
      miss(pointer, `${typeName} is not a structured type of the model`);
      return;
    }
    if (def.abstract && named === undefined && def.kind === 'complex') {
      miss(pointer, `${typeName} is abstract: @odata.type must name the derived type`);
    }
    // An open type that declares no property of its own (fieldValueSet: a list item's columns by their
    // names) holds dynamic properties only; other open types declare what Graph answers in them.
    const dynamic = def.openType && def.properties.size === 0;
    for (const [key, v] of Object.entries(value)) {
      const at = `${pointer}/${pointerPart(key)}`;
      if (key.startsWith('@')) {
        this.checkAnnotation(key, v, at, result);
        continue;
      }
      const annotated = key.indexOf('@');
      if (annotated > 0) {
        // `name@odata.type`, `children@odata.count`…: annotations of a property that must exist.
        const owner = key.slice(0, annotated);
        if (!this.property(typeName, owner) && !(dynamic && owner in value))
          miss(at, `annotation of '${owner}', which is not a property of ${typeName}`);
        continue;
      }
      const property = this.property(typeName, key);
      if (!property && dynamic) {
        result.properties += 1;
        continue;
      }
      if (!property) {
        const open = this.lineage(typeName).some((t) => t.openType);
        miss(at, `'${key}' is not a property of ${typeName}${open ? ' (an open type: a dynamic property)' : ''}`);
        continue;
      }
      this.checkValue(v, property.type, property.nullable, at, result, false);
    }
  }

  /** One value of a declared type; `topLevel` for the `value` of a collection answer (not counted, no nulls). */
  private checkValue(
    value: unknown,
    type: TypeRef,
    nullable: boolean,
    pointer: string,
    result: CheckResult,
    topLevel: boolean,
  ) {
    const miss = (reason: string) => result.mismatches.push({ pointer, reason });
    if (!topLevel) result.properties += 1;
    if (type.collection) {
      if (!Array.isArray(value)) {
        miss(`expected an array (Collection(${type.name}))`);
        return;
      }
      value.forEach((element, i) => {
        this.checkElement(element, type.name, !topLevel && nullable, `${pointer}/${i}`, result);
      });
      return;
    }
    this.checkElement(value, type.name, nullable, pointer, result);
  }

  private checkElement(value: unknown, typeName: string, nullable: boolean, pointer: string, result: CheckResult) {
    const miss = (reason: string) => result.mismatches.push({ pointer, reason });
    if (value === null) {
      if (!nullable) miss(`null where ${typeName} is not nullable`);
      return;
    }
    const enumType = this.model.enums.get(typeName);
    if (enumType) {
      const names = typeof value === 'string' ? value.split(',').map((s) => s.trim()) : [];
      const ok =
        typeof value === 'string' &&
        (enumType.isFlags ? names.length > 0 : names.length === 1) &&
        names.every((n) => enumType.members.has(n));
      if (!ok) miss(`${JSON.stringify(value)} is not a member of ${typeName}`);
      return;
    }
    const structured = this.model.types.get(typeName);
    if (structured) {
      if (!isObject(value)) miss(`expected an object (${typeName})`);
      else this.checkStructured(value, typeName, pointer, result);
      return;
    }
    const problem = primitiveProblem(typeName, value);
    if (problem) miss(problem);
  }

  private checkError(json: unknown, result: CheckResult) {
    const miss = (pointer: string, reason: string) => result.mismatches.push({ pointer, reason });
    const error = isObject(json) ? json.error : undefined;
    if (!isObject(json) || !isObject(error)) {
      miss('/error', 'an error answer carries {error:{code,message,innerError}}');
      return;
    }
    for (const key of Object.keys(json)) if (key !== 'error') miss(`/${pointerPart(key)}`, `'${key}' beside 'error'`);
    const field = (pointer: string, ok: boolean, reason: string) => {
      result.properties += 1;
      if (!ok) miss(pointer, reason);
    };
    field('/error/code', typeof error.code === 'string' && error.code.length > 0, 'code is not a non-empty string');
    field('/error/message', typeof error.message === 'string', 'message is not a string');
    for (const key of Object.keys(error)) {
      if (!['code', 'message', 'innerError', 'details', 'target'].includes(key))
        miss(`/error/${pointerPart(key)}`, `'${key}' is not part of Graph's error body`);
    }
    const inner = error.innerError;
    if (!isObject(inner)) {
      miss('/error/innerError', 'missing innerError {date, request-id, client-request-id}');
      return;
    }
    // Graph writes the date without an offset (UTC): 2021-05-18T19:03:10.
    field(
      '/error/innerError/date',
      typeof inner.date === 'string' &&
        isIsoDateTime(/(Z|[+-]\d{2}:\d{2})$/.test(inner.date) ? inner.date : `${inner.date}Z`),
      'date is not an ISO 8601 date-time',
    );
    field('/error/innerError/request-id', isGuid(inner['request-id']), 'request-id is not a GUID');
    field(
      '/error/innerError/client-request-id',
      typeof inner['client-request-id'] === 'string' && inner['client-request-id'].length > 0,
      'client-request-id is missing',
    );
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const pointerPart = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
const isGuid = (value: unknown) =>
  typeof value === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
const isIsoDateTime = (value: unknown) =>
  typeof value === 'string' &&
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,7})?)?(Z|[+-]\d{2}:\d{2})$/.test(value) &&
  !Number.isNaN(Date.parse(value));

const INTEGER_RANGES: Record<string, [number, number]> = {
  'Edm.Byte': [0, 255],
  'Edm.SByte': [-128, 127],
  'Edm.Int16': [-32768, 32767],
  'Edm.Int32': [-2147483648, 2147483647],
  'Edm.Int64': [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

/** Why a JSON value is not of an Edm primitive type (OData JSON format 4.01), or undefined. */
function primitiveProblem(typeName: string, value: unknown): string | undefined {
  const range = INTEGER_RANGES[typeName];
  if (range) {
    return Number.isInteger(value) && (value as number) >= range[0] && (value as number) <= range[1]
      ? undefined
      : `${JSON.stringify(value)} is not an ${typeName}`;
  }
  switch (typeName) {
    case 'Edm.String':
      return typeof value === 'string' ? undefined : `${JSON.stringify(value)} is not an Edm.String`;
    case 'Edm.Boolean':
      return typeof value === 'boolean' ? undefined : `${JSON.stringify(value)} is not an Edm.Boolean`;
    case 'Edm.Double':
    case 'Edm.Single':
    case 'Edm.Decimal':
      return typeof value === 'number' || ['NaN', 'INF', '-INF'].includes(String(value))
        ? undefined
        : `${JSON.stringify(value)} is not an ${typeName}`;
    case 'Edm.DateTimeOffset':
      return isIsoDateTime(value) ? undefined : `${JSON.stringify(value)} is not an Edm.DateTimeOffset`;
    case 'Edm.Date':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)
        ? undefined
        : `${JSON.stringify(value)} is not an Edm.Date`;
    case 'Edm.TimeOfDay':
      return typeof value === 'string' && /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)
        ? undefined
        : `${JSON.stringify(value)} is not an Edm.TimeOfDay`;
    case 'Edm.Duration':
      return typeof value === 'string' && /^-?P(?=\d|T\d)(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/.test(value)
        ? undefined
        : `${JSON.stringify(value)} is not an Edm.Duration`;
    case 'Edm.Guid':
      return isGuid(value) ? undefined : `${JSON.stringify(value)} is not an Edm.Guid`;
    case 'Edm.Binary':
      return typeof value === 'string' && /^[A-Za-z0-9+/_-]*={0,2}$/.test(value)
        ? undefined
        : `${JSON.stringify(value)} is not an Edm.Binary (base64)`;
    case 'Edm.Stream':
      return 'a stream property is not inlined in JSON';
    case 'Edm.Untyped':
    case 'Edm.PrimitiveType':
      return undefined;
    default:
      return `${typeName} is not a type of the model`;
  }
}

let shared: GraphSchema | undefined;

/** Checks one answer against Graph v1.0's published metadata (read once). */
export function checkGraphAnswer(answer: { method: string; path: string; status: number; json: unknown }): CheckResult {
  shared ??= new GraphSchema();
  return shared.check(answer);
}
