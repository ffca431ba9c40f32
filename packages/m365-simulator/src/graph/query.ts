/**
 * OData system query options over the JSON the routes answer: `$filter` (comparisons, `and`, `or`,
 * `not`, `in`, `startswith`/`endswith`/`contains`, lambdas such as
 * `resourceProvisioningOptions/Any(x:x eq 'Team')`), `$orderby`, `$select` and a directory-style
 * `$search`. They work on answers, not on the model, so every route gets them alike.
 */

type Json = Record<string, unknown>;

export class QueryError extends Error {}

type Node =
  | { kind: 'and' | 'or'; left: Node; right: Node }
  | { kind: 'not'; operand: Node }
  | { kind: 'compare'; op: 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le'; left: Node; right: Node }
  | { kind: 'in'; left: Node; list: Node[] }
  | { kind: 'call'; name: string; args: Node[] }
  | { kind: 'lambda'; path: string[]; quantifier: 'any' | 'all'; variable: string; body: Node | null }
  | { kind: 'path'; path: string[] }
  | { kind: 'literal'; value: unknown };

export interface ParsedFilter {
  root: Node;
  /** Operators Graph allows on directory objects only in advanced queries. */
  advanced: boolean;
}

const TOKEN =
  /\s*(?:(\()|(\))|(,)|(:)|('(?:[^']|'')*')|(\d{4}-\d{2}-\d{2}T[\d:.]+(?:Z|[+-]\d{2}:\d{2})?)|([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})|(-?\d+(?:\.\d+)?)|([A-Za-z_$@][\w.$@]*(?:\/[A-Za-z_$@][\w.$@]*)*))/iy;

interface Token {
  type: 'open' | 'close' | 'comma' | 'colon' | 'string' | 'date' | 'guid' | 'number' | 'word';
  text: string;
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(TOKEN.lastIndex))) break;
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (!m) throw new QueryError(`Invalid filter clause: syntax error at position ${at} in '${text}'.`);
    const types: Token['type'][] = ['open', 'close', 'comma', 'colon', 'string', 'date', 'guid', 'number', 'word'];
    const index = m.slice(1).findIndex((g) => g !== undefined);
    tokens.push({ type: types[index] ?? 'word', text: m[index + 1] ?? '' });
  }
  return tokens;
}

/** Parses a $filter expression; throws QueryError as Graph answers 400 for one it cannot read. */
export function parseFilter(text: string): ParsedFilter {
  const tokens = tokenize(text);
  let i = 0;
  let advanced = false;
  const peek = () => tokens[i];
  const word = (t: Token | undefined, w: string) => t?.type === 'word' && t.text.toLowerCase() === w;
  const expect = (type: Token['type']) => {
    const t = tokens[i++];
    if (t?.type !== type) throw new QueryError(`Invalid filter clause: expected ${type} in '${text}'.`);
    return t;
  };

  const or = (): Node => {
    let left = and();
    while (word(peek(), 'or')) {
      i++;
      left = { kind: 'or', left, right: and() };
    }
    return left;
  };
  const and = (): Node => {
    let left = unary();
    while (word(peek(), 'and')) {
      i++;
      left = { kind: 'and', left, right: unary() };
    }
    return left;
  };
  const unary = (): Node => {
    if (word(peek(), 'not')) {
      i++;
      advanced = true;
      return { kind: 'not', operand: unary() };
    }
    return comparison();
  };
  const comparison = (): Node => {
    const left = operand();
    const t = peek();
    if (t?.type === 'word' && /^(eq|ne|gt|ge|lt|le)$/i.test(t.text)) {
      i++;
      const op = t.text.toLowerCase() as 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';
      if (op === 'ne') advanced = true;
      return { kind: 'compare', op, left, right: operand() };
    }
    if (word(t, 'in')) {
      i++;
      expect('open');
      const list: Node[] = [operand()];
      while (peek()?.type === 'comma') {
        i++;
        list.push(operand());
      }
      expect('close');
      return { kind: 'in', left, list };
    }
    return left;
  };
  const operand = (): Node => {
    const t = tokens[i++];
    if (!t) throw new QueryError(`Invalid filter clause: the expression ends early in '${text}'.`);
    if (t.type === 'open') {
      const inner = or();
      expect('close');
      return inner;
    }
    if (t.type === 'string') return { kind: 'literal', value: t.text.slice(1, -1).replace(/''/g, "'") };
    if (t.type === 'number') return { kind: 'literal', value: Number(t.text) };
    if (t.type === 'date' || t.type === 'guid') return { kind: 'literal', value: t.text };
    if (t.type !== 'word') throw new QueryError(`Invalid filter clause: unexpected '${t.text}' in '${text}'.`);
    const lower = t.text.toLowerCase();
    if (lower === 'true' || lower === 'false') return { kind: 'literal', value: lower === 'true' };
    if (lower === 'null') return { kind: 'literal', value: null };
    const path = t.text.split('/');
    const last = path[path.length - 1]?.toLowerCase();
    if (peek()?.type === 'open' && (last === 'any' || last === 'all') && path.length > 1) {
      i++;
      if (peek()?.type === 'close') {
        i++;
        return { kind: 'lambda', path: path.slice(0, -1), quantifier: last, variable: '', body: null };
      }
      const variable = expect('word').text;
      expect('colon');
      const body = or();
      expect('close');
      return { kind: 'lambda', path: path.slice(0, -1), quantifier: last, variable, body };
    }
    if (peek()?.type === 'open' && path.length === 1) {
      i++;
      const args: Node[] = [];
      if (peek()?.type !== 'close') {
        args.push(or());
        while (peek()?.type === 'comma') {
          i++;
          args.push(or());
        }
      }
      expect('close');
      if (lower === 'endswith') advanced = true;
      if (!['startswith', 'endswith', 'contains', 'tolower', 'toupper'].includes(lower))
        throw new QueryError(`Invalid filter clause: unknown function '${t.text}'.`);
      return { kind: 'call', name: lower, args };
    }
    return { kind: 'path', path };
  };

  const root = or();
  if (i < tokens.length) throw new QueryError(`Invalid filter clause: unexpected '${tokens[i]?.text}' in '${text}'.`);
  return { root, advanced };
}

function lookup(row: unknown, path: string[]): unknown {
  let value: unknown = row;
  for (const part of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Json)[part];
  }
  return value;
}

const isDate = (v: unknown): v is string => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v);

/** Graph compares strings without regard to case, and dates as instants. */
function compare(a: unknown, b: unknown): number | undefined {
  if (a === null || a === undefined || b === null || b === undefined)
    return a === b || (a == null && b == null) ? 0 : undefined;
  if (isDate(a) && isDate(b)) return Date.parse(a) - Date.parse(b);
  if (typeof a === 'string' && typeof b === 'string') {
    const x = a.toLowerCase();
    const y = b.toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  return undefined;
}

function evaluate(node: Node, row: unknown, scope: Record<string, unknown>): unknown {
  switch (node.kind) {
    case 'and':
      return Boolean(evaluate(node.left, row, scope)) && Boolean(evaluate(node.right, row, scope));
    case 'or':
      return Boolean(evaluate(node.left, row, scope)) || Boolean(evaluate(node.right, row, scope));
    case 'not':
      return !evaluate(node.operand, row, scope);
    case 'literal':
      return node.value;
    case 'path': {
      const [head = '', ...rest] = node.path;
      return head in scope ? lookup(scope[head], rest) : lookup(row, node.path);
    }
    case 'compare': {
      const c = compare(evaluate(node.left, row, scope), evaluate(node.right, row, scope));
      if (c === undefined) return node.op === 'ne';
      return { eq: c === 0, ne: c !== 0, gt: c > 0, ge: c >= 0, lt: c < 0, le: c <= 0 }[node.op];
    }
    case 'in': {
      const value = evaluate(node.left, row, scope);
      return node.list.some((n) => compare(value, evaluate(n, row, scope)) === 0);
    }
    case 'call': {
      const args = node.args.map((a) => evaluate(a, row, scope));
      const [a, b] = args.map((v) => (typeof v === 'string' ? v.toLowerCase() : v));
      if (node.name === 'tolower') return typeof args[0] === 'string' ? args[0].toLowerCase() : args[0];
      if (node.name === 'toupper') return typeof args[0] === 'string' ? args[0].toUpperCase() : args[0];
      if (typeof a !== 'string' || typeof b !== 'string') return false;
      if (node.name === 'startswith') return a.startsWith(b);
      if (node.name === 'endswith') return a.endsWith(b);
      return a.includes(b);
    }
    case 'lambda': {
      const [head = '', ...rest] = node.path;
      const collection = head in scope ? lookup(scope[head], rest) : lookup(row, node.path);
      if (!Array.isArray(collection)) return false;
      if (!node.body) return collection.length > 0;
      const body = node.body;
      const test = (element: unknown) => Boolean(evaluate(body, row, { ...scope, [node.variable]: element }));
      return node.quantifier === 'any' ? collection.some(test) : collection.every(test);
    }
  }
}

export function matches(filter: ParsedFilter, row: unknown): boolean {
  return Boolean(evaluate(filter.root, row, {}));
}

/** `$orderby=displayName desc, createdDateTime`: a comparator over answers. */
export function parseOrderBy(text: string): {
  keys: { path: string[]; desc: boolean }[];
  compare(a: unknown, b: unknown): number;
} {
  const keys = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [name = '', direction = 'asc', extra] = part.split(/\s+/);
      if (extra !== undefined || !/^(asc|desc)$/i.test(direction) || !/^[\w/]+$/.test(name))
        throw new QueryError(`Invalid $orderby clause: '${part}'.`);
      return { path: name.split('/'), desc: direction.toLowerCase() === 'desc' };
    });
  return {
    keys,
    compare(a, b) {
      for (const key of keys) {
        const x = lookup(a, key.path);
        const y = lookup(b, key.path);
        // Nulls first in ascending order, as Graph sorts them.
        const c = x == null ? (y == null ? 0 : -1) : y == null ? 1 : (compare(x, y) ?? 0);
        if (c !== 0) return key.desc ? -c : c;
      }
      return 0;
    },
  };
}

/**
 * `$select=a,b`: only those properties, the id and the annotations of an answer, and the navigation
 * properties `$expand` brought in (`expanded`), which OData adds whatever `$select` says.
 */
export function selectProperties(row: unknown, select: string, expanded: readonly string[] = []): unknown {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return row;
  const wanted = new Set([
    ...select
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    ...expanded,
  ]);
  const out: Json = {};
  for (const [key, value] of Object.entries(row as Json)) {
    const owner = key.includes('@') ? key.slice(0, key.indexOf('@')) : key;
    if (key === 'id' || owner === '' || wanted.has(owner)) out[key] = value;
  }
  return out;
}

/**
 * Directory `$search`: `"displayName:adele"` clauses (or plain `"adele"` over display name, mail
 * and user principal name) joined by AND or OR; a clause matches a word of the property that starts
 * with its text.
 */
export function parseSearch(text: string): (row: unknown) => boolean {
  const clauses = [...text.matchAll(/"([^"]*)"|\b(AND|OR)\b/g)];
  if (clauses.length === 0) throw new QueryError('Syntax error: the $search value must be in double quotes.');
  const tests: ((row: unknown) => boolean)[] = [];
  const joins: string[] = [];
  for (const m of clauses) {
    if (m[2]) {
      joins.push(m[2]);
      continue;
    }
    const clause = m[1] ?? '';
    const colon = clause.indexOf(':');
    const properties = colon > 0 ? [clause.slice(0, colon)] : ['displayName', 'mail', 'userPrincipalName'];
    const needle = (colon > 0 ? clause.slice(colon + 1) : clause).toLowerCase();
    tests.push((row) =>
      properties.some((p) => {
        const value = lookup(row, [p]);
        return (
          typeof value === 'string' &&
          value
            .toLowerCase()
            .split(/[\s@._-]+/)
            .some((w) => w.startsWith(needle))
        );
      }),
    );
  }
  return (row) =>
    tests.reduce<boolean>(
      (acc, test, i) => (i === 0 ? test(row) : joins[i - 1] === 'OR' ? acc || test(row) : acc && test(row)),
      false,
    );
}

/** One navigation property of `$expand`, with the `$select` and `$expand` given inside its parentheses. */
export interface Expansion {
  name: string;
  select?: string[];
  expand: Expansion[];
}

/** Splits at the separator outside parentheses; throws QueryError for parentheses that do not pair. */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth += 1;
    else if (c === ')') depth -= 1;
    if (depth < 0) throw new QueryError(`Parsing OData Select and Expand failed: unbalanced parentheses in '${text}'.`);
    if (c === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0) throw new QueryError(`Parsing OData Select and Expand failed: unbalanced parentheses in '${text}'.`);
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter(Boolean);
}

/**
 * `$expand=fields($select=Title,Status),columns`, and Graph's SharePoint form without the dollars
 * (`expand=fields(select=Title)`): each navigation property with its own options, `;`-separated.
 */
export function parseExpand(text: string): Expansion[] {
  return splitTopLevel(text, ',').map((part) => {
    const open = part.indexOf('(');
    const name = (open < 0 ? part : part.slice(0, open)).trim();
    if (!/^[A-Za-z_][\w.]*$/.test(name)) throw new QueryError(`Parsing OData Select and Expand failed: '${part}'.`);
    const expansion: Expansion = { name, expand: [] };
    if (open < 0) return expansion;
    if (!part.endsWith(')')) throw new QueryError(`Parsing OData Select and Expand failed: '${part}'.`);
    for (const option of splitTopLevel(part.slice(open + 1, -1), ';')) {
      const at = option.indexOf('=');
      const key = option.slice(0, at).trim().replace(/^\$/, '').toLowerCase();
      const value = option.slice(at + 1).trim();
      if (at < 0 || !value) throw new QueryError(`Parsing OData Select and Expand failed: '${option}'.`);
      if (key === 'select') expansion.select = splitTopLevel(value, ',');
      else if (key === 'expand') expansion.expand = parseExpand(value);
      else
        throw new QueryError(
          `Parsing OData Select and Expand failed: the option '${key}' is not supported in $expand.`,
        );
    }
    return expansion;
  });
}

/** The request's `$expand` (or `expand`, which Graph also reads for SharePoint) as text, if any. */
export const expandText = (query: URLSearchParams) => query.get('$expand') ?? query.get('expand');
