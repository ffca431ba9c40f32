/**
 * `$search` on messages as Outlook answers it: a KQL query, in double quotes or bare. A free-text
 * term looks in the default search properties (from, subject and body); a property restriction
 * (`subject:invoice`, `from:adele`, `to:…`, `cc:…`, `bcc:…`, `participants:…`, `recipients:…`,
 * `body:…`, `attachment:…`, `hasAttachments:true`, `importance:high`, `kind:email`, `received:…`,
 * `sent:…`, `size:…`) in that property. Words match whole words without regard to case (`invo*` is a
 * prefix); a phrase in quotes (`"quarterly report"`, escaped `\"` inside the outer quotes) matches
 * its words in a row; an address matches whole, by its alias or by its display name. Dates take
 * `2026-09-01` or `09/01/2026`, ranges `a..b` and the comparisons `>`, `>=`, `<`, `<=`; sizes are bytes.
 * Terms side by side must all match (AND); AND, OR, NOT (upper case, as KQL has them), `-term` and
 * parentheses combine them.
 */
import { QueryError } from './query.js';

/** A message as the search sees it. */
export interface SearchableMessage {
  subject: string;
  body: string;
  /** Each a display name and an address. */
  from: Mailbox[];
  to: Mailbox[];
  cc: Mailbox[];
  bcc: Mailbox[];
  /** The names of attached files. */
  attachments: string[];
  hasAttachments: boolean;
  importance: string;
  /** ISO date-times. */
  received: string;
  sent: string;
  /** Bytes of the MIME message. */
  size: number;
}

interface Mailbox {
  name: string;
  address: string;
}

type Test = (m: SearchableMessage) => boolean;

/** Words of a text, lower case, as a content index splits them. */
const wordsOf = (text: string) => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) as string[];

/**
 * Whether `terms` (the words of a query term or phrase) occur in a row among `words`; the last may
 * be a prefix (`invo*`).
 */
function occurs(words: readonly string[], terms: readonly string[], prefix: boolean): boolean {
  if (terms.length === 0) return false;
  const last = terms.length - 1;
  for (let start = 0; start + terms.length <= words.length; start++) {
    const found = terms.every((term, i) => {
      const word = words[start + i] ?? '';
      return i === last && prefix ? word.startsWith(term) : word === term;
    });
    if (found) return true;
  }
  return false;
}

/** A text matcher for a term or phrase. */
function textMatcher(value: string): (text: string) => boolean {
  const prefix = value.endsWith('*');
  const terms = wordsOf(prefix ? value.slice(0, -1) : value);
  if (terms.length === 0) throw new QueryError(`Syntax error: '${value}' has no word to search for.`);
  return (text) => occurs(wordsOf(text), terms, prefix);
}

/** An address matches whole, or by the words of its alias, domain or display name. */
function mailboxMatcher(value: string): (boxes: readonly Mailbox[]) => boolean {
  const text = textMatcher(value);
  const whole = value.toLowerCase();
  return (boxes) => boxes.some((b) => b.address.toLowerCase() === whole || text(b.address) || text(b.name));
}

/** A day (UTC) from `2026-09-01` or `9/1/2026`, as a number of days; undefined if it is none. */
function dayOf(text: string): number | undefined {
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  const [y, m, d] = iso ? [iso[1], iso[2], iso[3]] : us ? [us[3], us[1], us[2]] : [];
  if (!y || !m || !d) return undefined;
  const time = Date.UTC(Number(y), Number(m) - 1, Number(d));
  return Number.isNaN(time) ? undefined : Math.floor(time / 86_400_000);
}

type Operator = ':' | '=' | '>' | '>=' | '<' | '<=';

/** A comparison of numbers (days or bytes): a value, a range `a..b`, or an operator's bound. */
function numberMatcher(op: Operator, value: string, read: (text: string) => number | undefined, what: string) {
  const fail = () => new QueryError(`Syntax error: '${value}' is not a ${what}.`);
  const range = /^(.+)\.\.(.+)$/.exec(value);
  if (range && (op === ':' || op === '=')) {
    const low = read(range[1] ?? '');
    const high = read(range[2] ?? '');
    if (low === undefined || high === undefined) throw fail();
    return (n: number) => n >= low && n <= high;
  }
  const bound = read(value);
  if (bound === undefined) throw fail();
  switch (op) {
    case '>':
      return (n: number) => n > bound;
    case '>=':
      return (n: number) => n >= bound;
    case '<':
      return (n: number) => n < bound;
    case '<=':
      return (n: number) => n <= bound;
    default:
      return (n: number) => n === bound;
  }
}

const day = (iso: string) => Math.floor(Date.parse(iso) / 86_400_000);
const bytes = (text: string) => (/^\d+$/.test(text) ? Number(text) : undefined);

/** A property restriction; undefined for a name that is not a searchable message property (then it is text). */
function restriction(name: string, op: Operator, value: string): Test | undefined {
  const property = name.toLowerCase();
  const textual = op === ':' || op === '=';
  const address = (pick: (m: SearchableMessage) => Mailbox[]) => {
    const match = mailboxMatcher(value);
    return (m: SearchableMessage) => match(pick(m));
  };
  const needsText = (test: Test) => {
    if (!textual) throw new QueryError(`Syntax error: '${name}' takes no '${op}'.`);
    return test;
  };
  switch (property) {
    case 'subject':
    case 'body': {
      const match = textMatcher(value);
      return needsText((m) => match(m[property]));
    }
    case 'from':
    case 'to':
    case 'cc':
    case 'bcc':
      return needsText(address((m) => m[property]));
    case 'participants':
      return needsText(address((m) => [...m.from, ...m.to, ...m.cc, ...m.bcc]));
    case 'recipients':
      return needsText(address((m) => [...m.to, ...m.cc, ...m.bcc]));
    case 'attachment': {
      const match = textMatcher(value);
      return needsText((m) => m.attachments.some((a) => a.toLowerCase() === value.toLowerCase() || match(a)));
    }
    case 'hasattachment':
    case 'hasattachments': {
      const wanted = value.toLowerCase();
      if (wanted !== 'true' && wanted !== 'false')
        throw new QueryError(`Syntax error: '${value}' is not true or false.`);
      return needsText((m) => m.hasAttachments === (wanted === 'true'));
    }
    case 'importance': {
      // KQL's medium is Outlook's normal.
      const wanted = value.toLowerCase() === 'medium' ? 'normal' : value.toLowerCase();
      return needsText((m) => m.importance.toLowerCase() === wanted);
    }
    case 'kind':
      // Every message the simulator holds is an email.
      return needsText(() => value.toLowerCase() === 'email');
    case 'received':
    case 'sent': {
      const match = numberMatcher(op, value, dayOf, 'date');
      return (m) => match(day(m[property]));
    }
    case 'size': {
      const match = numberMatcher(op, value, bytes, 'size in bytes');
      return (m) => match(m.size);
    }
    default:
      return undefined;
  }
}

type Token =
  | { kind: 'open' | 'close' | 'and' | 'or' | 'not' }
  | { kind: 'term'; text: string }
  | { kind: 'restriction'; name: string; op: Operator; value: string };

function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  const pattern =
    /\s*(?:(\()|(\))|(-)(?=[^\s()])|"((?:[^"\\]|\\.)*)"|([A-Za-z]+)(>=|<=|>|<|:|=)(?:"((?:[^"\\]|\\.)*)"|([^\s()"]*))|([^\s()"]+))/y;
  while (pattern.lastIndex < query.length) {
    if (/^\s*$/.test(query.slice(pattern.lastIndex))) break;
    const at = pattern.lastIndex;
    const m = pattern.exec(query);
    if (!m || pattern.lastIndex === at) throw new QueryError(`Syntax error at position ${at} in the $search value.`);
    const unquote = (text: string) => text.replace(/\\(.)/g, '$1');
    if (m[1]) tokens.push({ kind: 'open' });
    else if (m[2]) tokens.push({ kind: 'close' });
    // `-term` excludes, as NOT does.
    else if (m[3]) tokens.push({ kind: 'not' });
    else if (m[4] !== undefined) tokens.push({ kind: 'term', text: unquote(m[4]) });
    else if (m[5]) {
      const value = m[7] !== undefined ? unquote(m[7]) : (m[8] ?? '');
      if (!value) throw new QueryError(`Syntax error: '${m[5]}${m[6]}' has no value.`);
      tokens.push({ kind: 'restriction', name: m[5], op: (m[6] ?? ':') as Operator, value });
    } else {
      const word = m[9] ?? '';
      if (word === 'AND') tokens.push({ kind: 'and' });
      else if (word === 'OR') tokens.push({ kind: 'or' });
      else if (word === 'NOT') tokens.push({ kind: 'not' });
      else tokens.push({ kind: 'term', text: word });
    }
  }
  return tokens;
}

/** The free-text test: a term in from, subject or body, the default search properties. */
function freeText(text: string): Test {
  const match = textMatcher(text);
  const sender = mailboxMatcher(text);
  return (m) => match(m.subject) || match(m.body) || sender(m.from);
}

/**
 * The test of a `$search` value on messages. The value may be in double quotes (as OData writes a
 * search string, inner quotes escaped with `\`) or bare; throws QueryError for one it cannot read.
 */
export function parseMessageSearch(value: string): Test {
  const trimmed = value.trim();
  const quoted = trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"');
  const query = quoted ? trimmed.slice(1, -1).replace(/\\"/g, '"') : trimmed;
  const tokens = tokenize(query);
  if (tokens.length === 0) throw new QueryError('Syntax error: the $search value is empty.');
  let i = 0;
  const peek = () => tokens[i];
  const or = (): Test => {
    let left = and();
    while (peek()?.kind === 'or') {
      i++;
      const l = left;
      const r = and();
      left = (m) => l(m) || r(m);
    }
    return left;
  };
  const and = (): Test => {
    let left = unary();
    for (let next = peek(); next && next.kind !== 'or' && next.kind !== 'close'; next = peek()) {
      if (next.kind === 'and') i++;
      const l = left;
      const r = unary();
      left = (m) => l(m) && r(m);
    }
    return left;
  };
  const unary = (): Test => {
    const t = tokens[i++];
    if (!t) throw new QueryError('Syntax error: the $search value ends early.');
    switch (t.kind) {
      case 'not': {
        const operand = unary();
        return (m) => !operand(m);
      }
      case 'open': {
        const inner = or();
        if (tokens[i++]?.kind !== 'close') throw new QueryError('Syntax error: a parenthesis is not closed.');
        return inner;
      }
      case 'term':
        return freeText(t.text);
      case 'restriction':
        return restriction(t.name, t.op, t.value) ?? freeText(`${t.name} ${t.value}`);
      default:
        throw new QueryError(`Syntax error: unexpected ${t.kind.toUpperCase()} in the $search value.`);
    }
  };
  const test = or();
  if (i < tokens.length) throw new QueryError('Syntax error: unexpected text in the $search value.');
  return test;
}
