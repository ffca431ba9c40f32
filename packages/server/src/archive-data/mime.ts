/**
 * Just enough of RFC 5322/2045/2047 to index an archived mail: the headers a search filters on
 * (encoded words decoded), the readable body (text/plain, else HTML stripped; quoted-printable and
 * base64 decoded), and whether it carries attachments; and the name a mail is saved under as a file.
 */

export interface MailSummary {
  subject: string;
  from: string;
  to: string;
  date: Date | null;
  body: string;
  hasAttachments: boolean;
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

function splitPart(text: string): Part {
  const at = text.search(/\r?\n\r?\n/);
  const head = at >= 0 ? text.slice(0, at) : text;
  const body = at >= 0 ? text.slice(at).replace(/^\r?\n\r?\n/, '') : '';
  const headers = new Map<string, string>();
  // Folded lines continue the header above them.
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) {
      const name = line.slice(0, colon).trim().toLowerCase();
      if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
    }
  }
  return { headers, body };
}

function decodeBytes(bytes: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset.toLowerCase() === 'latin1' ? 'iso-8859-1' : charset).decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}

function quotedPrintable(text: string): Buffer {
  const soft = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const hex = soft.slice(i + 1, i + 3);
    if (soft[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else bytes.push(soft.charCodeAt(i) & 0xff);
  }
  return Buffer.from(bytes);
}

/** RFC 2047 encoded words: =?charset?B?…?= and =?charset?Q?…?=. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, charset: string, encoding: string, data: string) =>
      decodeBytes(
        encoding.toUpperCase() === 'B' ? Buffer.from(data, 'base64') : quotedPrintable(data.replace(/_/g, ' ')),
        charset,
      ),
    );
}

function parameter(header: string | undefined, name: string): string | undefined {
  const match = header?.match(new RegExp(`${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i'));
  return match?.[1] ?? match?.[2];
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '').toLowerCase();
  const charset = parameter(part.headers.get('content-type'), 'charset') ?? 'utf-8';
  if (encoding === 'base64') return decodeBytes(Buffer.from(part.body.replace(/\s+/g, ''), 'base64'), charset);
  if (encoding === 'quoted-printable') return decodeBytes(quotedPrintable(part.body), charset);
  return part.body;
}

export function stripHtml(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<br\s*\/?>|<\/p>|<\/div>/gi, '\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/[ \t]+/g, ' ')
    .trim();
}

/** Leaf parts of a (possibly nested) multipart body, depth-first. */
function leaves(part: Part, depth = 0): Part[] {
  const type = part.headers.get('content-type') ?? 'text/plain';
  const boundary = parameter(type, 'boundary');
  if (!/^multipart\//i.test(type) || !boundary || depth > 5) return [part];
  const pieces = part.body.split(`--${boundary}`);
  return pieces
    .slice(1)
    .filter((piece) => !piece.startsWith('--'))
    .flatMap((piece) => leaves(splitPart(piece.replace(/^\r?\n/, '')), depth + 1));
}

export function summariseMail(mime: Uint8Array): MailSummary {
  const root = splitPart(Buffer.from(mime).toString('latin1'));
  const header = (name: string) =>
    decodeWords(decodeBytes(Buffer.from(root.headers.get(name) ?? '', 'latin1'), 'utf-8'));
  const parts = leaves(root);
  const isAttachment = (p: Part) =>
    /attachment/i.test(p.headers.get('content-disposition') ?? '') ||
    (parameter(p.headers.get('content-type'), 'name') !== undefined &&
      !/^text\//i.test(p.headers.get('content-type') ?? ''));
  const readable = parts.filter((p) => !isAttachment(p));
  const plain = readable.find((p) => /^text\/plain/i.test(p.headers.get('content-type') ?? 'text/plain'));
  const html = readable.find((p) => /^text\/html/i.test(p.headers.get('content-type') ?? ''));
  const body = plain ? decodeBody(plain) : html ? stripHtml(decodeBody(html)) : '';
  const date = root.headers.get('date');
  const parsed = date ? new Date(date) : null;
  return {
    subject: header('subject'),
    from: header('from'),
    to: [header('to'), header('cc')].filter(Boolean).join(', '),
    date: parsed && !Number.isNaN(parsed.getTime()) ? parsed : null,
    body: body.trim(),
    hasAttachments: parts.some(isAttachment),
  };
}

/** A mail as a reader opens it: its headers, its readable text and its attachments' names and sizes. */
export interface MailReading {
  subject: string;
  from: string;
  to: string;
  cc: string;
  date: Date | null;
  body: string;
  attachments: { name: string; contentType: string; sizeBytes: number }[];
}

/** The attachment's size once decoded: base64 counted by its data, anything else by its bytes. */
function decodedSize(part: Part): number {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '').toLowerCase();
  if (encoding === 'base64') {
    const data = part.body.replace(/\s+/g, '');
    return Math.max(0, Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0));
  }
  if (encoding === 'quoted-printable') return quotedPrintable(part.body).length;
  return Buffer.byteLength(part.body, 'latin1');
}

export function readMail(mime: Uint8Array): MailReading {
  const summary = summariseMail(mime);
  const root = splitPart(Buffer.from(mime).toString('latin1'));
  const header = (name: string) =>
    decodeWords(decodeBytes(Buffer.from(root.headers.get(name) ?? '', 'latin1'), 'utf-8'));
  const attachments = leaves(root).flatMap((p) => {
    const type = p.headers.get('content-type') ?? 'text/plain';
    const disposition = p.headers.get('content-disposition') ?? '';
    const name = parameter(disposition, 'filename') ?? parameter(type, 'name');
    if (!/attachment/i.test(disposition) && (name === undefined || /^text\//i.test(type))) return [];
    return [
      {
        name: decodeWords(name ?? 'attachment'),
        contentType: (type.split(';')[0] ?? '').trim().toLowerCase() || 'application/octet-stream',
        sizeBytes: decodedSize(p),
      },
    ];
  });
  return {
    subject: summary.subject,
    from: summary.from,
    to: header('to'),
    cc: header('cc'),
    date: summary.date,
    body: summary.body,
    attachments,
  };
}

/** A file name from a subject: no path separators or characters file systems refuse, at most 80 characters. */
export function mailFileName(subject: string, id: string): string {
  const base =
    subject
      .replace(/[\\/:*?"<>|\p{Cc}]+/gu, '_')
      .trim()
      .slice(0, 80) || 'message';
  return `${base}-${id}.eml`;
}
