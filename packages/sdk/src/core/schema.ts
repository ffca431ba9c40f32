/**
 * A small JSON Schema builder whose values are plain JSON Schema (draft 2020-12, as OpenAPI 3.1 uses)
 * and whose TypeScript types carry the static type they describe. One definition gives the SDK's
 * request and response types, the OpenAPI document and the server's request validation.
 */

/** Type-level only: the static type a schema describes. Has no runtime value. */
export declare const staticType: unique symbol;
/** Marks a property schema as optional inside {@link object}; never serialised (symbol key). */
export const optionalMark: unique symbol = Symbol.for('compliance-portal.optional');

/** The JSON Schema keywords this builder emits. */
export interface JsonSchema {
  type?: 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';
  description?: string;
  format?: string;
  enum?: readonly (string | number)[];
  const?: string | number | boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  contentMediaType?: string;
  default?: unknown;
  examples?: unknown[];
}

/** A JSON Schema that also carries, at the type level only, the TypeScript type it describes. */
export type Schema<T = unknown> = JsonSchema & { readonly [staticType]?: T };
/** A property schema that may be left out of its object. */
export type OptionalSchema<T = unknown> = Schema<T> & { readonly [optionalMark]: true };

/** The TypeScript type a schema describes. */
export type Static<S> = S extends Schema<infer T> ? T : never;

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type Props = Record<string, Schema>;
type RequiredKeys<P extends Props> = { [K in keyof P]: P[K] extends OptionalSchema ? never : K }[keyof P];
type OptionalKeys<P extends Props> = { [K in keyof P]: P[K] extends OptionalSchema ? K : never }[keyof P];
export type ObjectStatic<P extends Props> = Simplify<
  { [K in RequiredKeys<P>]: Static<P[K]> } & { [K in OptionalKeys<P>]?: Static<P[K]> }
>;

type Annotations = Pick<JsonSchema, 'description' | 'examples' | 'default'>;
type StringOptions = Annotations & Pick<JsonSchema, 'format' | 'minLength' | 'maxLength' | 'pattern'>;
type NumberOptions = Annotations & Pick<JsonSchema, 'minimum' | 'maximum'>;
type ArrayOptions = Annotations & Pick<JsonSchema, 'minItems' | 'maxItems' | 'uniqueItems'>;

/*#__NO_SIDE_EFFECTS__*/
export function string(options: StringOptions = {}): Schema<string> {
  return { type: 'string', ...options };
}

/** An ISO 8601 date-time string. */
/*#__NO_SIDE_EFFECTS__*/
export function dateTime(description?: string): Schema<string> {
  return string({ format: 'date-time', ...(description ? { description } : {}) });
}

/** An ISO 8601 calendar date (YYYY-MM-DD). */
/*#__NO_SIDE_EFFECTS__*/
export function date(description?: string): Schema<string> {
  return string({ format: 'date', ...(description ? { description } : {}) });
}

/*#__NO_SIDE_EFFECTS__*/
export function email(description?: string): Schema<string> {
  return string({ format: 'email', maxLength: 254, ...(description ? { description } : {}) });
}

/*#__NO_SIDE_EFFECTS__*/
export function number(options: NumberOptions = {}): Schema<number> {
  return { type: 'number', ...options };
}

/*#__NO_SIDE_EFFECTS__*/
export function integer(options: NumberOptions = {}): Schema<number> {
  return { type: 'integer', ...options };
}

/*#__NO_SIDE_EFFECTS__*/
export function boolean(description?: string): Schema<boolean> {
  return description ? { type: 'boolean', description } : { type: 'boolean' };
}

/*#__NO_SIDE_EFFECTS__*/
export function literal<const V extends string | number | boolean>(value: V, description?: string): Schema<V> {
  return description ? { const: value, description } : { const: value };
}

/** One of a fixed set of strings. */
/*#__NO_SIDE_EFFECTS__*/
export function oneOfStrings<const V extends readonly string[]>(values: V, description?: string): Schema<V[number]> {
  return { type: 'string', enum: values, ...(description ? { description } : {}) };
}

/*#__NO_SIDE_EFFECTS__*/
export function array<S extends Schema>(items: S, options: ArrayOptions = {}): Schema<Static<S>[]> {
  return { type: 'array', items, ...options };
}

/*#__NO_SIDE_EFFECTS__*/
export function object<P extends Props>(properties: P, description?: string): Schema<ObjectStatic<P>> {
  const required = Object.keys(properties).filter((key) => !(properties[key] as Partial<OptionalSchema>)[optionalMark]);
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    ...(description ? { description } : {}),
  };
}

/** A map of string keys to values of one schema. */
/*#__NO_SIDE_EFFECTS__*/
export function record<S extends Schema>(values: S, description?: string): Schema<Record<string, Static<S>>> {
  return { type: 'object', additionalProperties: values, ...(description ? { description } : {}) };
}

/*#__NO_SIDE_EFFECTS__*/
export function optional<S extends Schema>(schema: S): S & OptionalSchema<Static<S>> {
  return { ...schema, [optionalMark]: true } as S & OptionalSchema<Static<S>>;
}

/*#__NO_SIDE_EFFECTS__*/
export function nullable<S extends Schema>(schema: S): Schema<Static<S> | null> {
  return { anyOf: [schema, { type: 'null' }] };
}

/*#__NO_SIDE_EFFECTS__*/
export function union<const S extends readonly Schema[]>(schemas: S, description?: string): Schema<Static<S[number]>> {
  return { anyOf: [...schemas], ...(description ? { description } : {}) };
}

/** Any JSON value. */
/*#__NO_SIDE_EFFECTS__*/
export function unknown(description?: string): Schema<unknown> {
  return description ? { description } : {};
}

/** A file part of a multipart body. */
/*#__NO_SIDE_EFFECTS__*/
export function binary(description?: string): Schema<Blob> {
  return { type: 'string', contentMediaType: 'application/octet-stream', ...(description ? { description } : {}) };
}

/**
 * The bounds every request value has unless its schema says otherwise, so that no value the API
 * accepts overflows what the server stores: strings of at most 4096 characters, integers within a
 * signed 32-bit range, numbers within ±10^15, lists of at most 1000 items.
 */
export const REQUEST_BOUNDS = {
  maxLength: 4096,
  integer: { minimum: -2_147_483_648, maximum: 2_147_483_647 },
  number: { minimum: -1e15, maximum: 1e15 },
  maxItems: 1000,
} as const;

/** A copy of a request schema with {@link REQUEST_BOUNDS} filled in wherever a bound is missing. */
export function bounded<S extends JsonSchema>(schema: S): S {
  const out: JsonSchema = { ...schema };
  if (out.type === 'string' && out.enum === undefined && out.maxLength === undefined) {
    out.maxLength = REQUEST_BOUNDS.maxLength;
  }
  if (out.type === 'integer' || out.type === 'number') {
    const range = REQUEST_BOUNDS[out.type];
    out.minimum ??= range.minimum;
    out.maximum ??= range.maximum;
  }
  if (out.type === 'array') {
    out.maxItems ??= REQUEST_BOUNDS.maxItems;
    if (out.items) out.items = bounded(out.items);
  }
  if (out.properties) {
    out.properties = Object.fromEntries(Object.entries(out.properties).map(([k, v]) => [k, bounded(v)]));
  }
  if (out.additionalProperties && typeof out.additionalProperties === 'object') {
    out.additionalProperties = bounded(out.additionalProperties);
  }
  if (out.anyOf) out.anyOf = out.anyOf.map(bounded);
  if (out.oneOf) out.oneOf = out.oneOf.map(bounded);
  return out as S;
}
