/**
 * What the simulator reads from MIME and file names: RFC 2047 encoded-words in headers (`=?utf-8?B?…?=`),
 * mailbox addresses (`Name <address>`), and the media type of a file by its extension, as
 * SharePoint gives it in `file.mimeType`.
 */

/** Decodes RFC 2047 encoded-words (B and Q, any charset TextDecoder knows); other text is left as is. */
export function decodeEncodedWords(text: string): string {
  // White space between two encoded-words is not part of the text (RFC 2047 §6.2).
  const joined = text.replace(/(=\?[^?\s]+\?[bq]\?[^?\s]*\?=)\s+(?==\?[^?\s]+\?[bq]\?)/gi, '$1');
  return joined.replace(
    /=\?([^?\s]+)\?([bq])\?([^?\s]*)\?=/gi,
    (whole, charset: string, encoding: string, data: string) => {
      let bytes: Uint8Array;
      if (encoding.toLowerCase() === 'b') {
        bytes = Buffer.from(data, 'base64');
      } else {
        const text = data.replace(/_/g, ' ');
        const out: number[] = [];
        for (let i = 0; i < text.length; i++) {
          const hex = /^=([0-9a-f]{2})/i.exec(text.slice(i));
          if (hex?.[1]) {
            out.push(Number.parseInt(hex[1], 16));
            i += 2;
          } else out.push(text.charCodeAt(i) & 0xff);
        }
        bytes = Uint8Array.from(out);
      }
      try {
        // RFC 2231 allows a language after the charset (utf-8*en).
        return new TextDecoder(charset.split('*')[0], { fatal: false }).decode(bytes);
      } catch {
        return whole;
      }
    },
  );
}

/** `Name <address>`, `"Name" <address>` or a bare address, as Graph's emailAddress. */
export function parseMailbox(text: string): { name: string; address: string } {
  const decoded = decodeEncodedWords(text.trim());
  const angle = /^(.*?)\s*<([^>]*)>\s*$/.exec(decoded);
  if (angle) {
    const name = (angle[1] ?? '')
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .replace(/\\(.)/g, '$1');
    const address = (angle[2] ?? '').trim();
    return { name: name || address, address };
  }
  return { name: decoded, address: decoded };
}

/** A list of mailboxes (a To or Cc header), split at commas outside quotes and angle brackets. */
export function parseMailboxList(text: string): { name: string; address: string }[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  let angle = 0;
  for (const c of text) {
    if (c === '"') quoted = !quoted;
    if (!quoted && c === '<') angle += 1;
    if (!quoted && c === '>') angle = Math.max(0, angle - 1);
    if (c === ',' && !quoted && angle === 0) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts.filter((p) => p.trim()).map(parseMailbox);
}

const MIME_TYPES: Record<string, string> = {
  txt: 'text/plain',
  csv: 'text/csv',
  htm: 'text/html',
  html: 'text/html',
  xml: 'application/xml',
  json: 'application/json',
  pdf: 'application/pdf',
  zip: 'application/x-zip-compressed',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  mp4: 'video/mp4',
  mp3: 'audio/mpeg',
  eml: 'message/rfc822',
  msg: 'application/vnd.ms-outlook',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  one: 'application/msonenote',
  vsdx: 'application/vnd.ms-visio.drawing',
};

/** The media type of a file name by its extension; application/octet-stream for others. */
export function mimeTypeOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return (dot >= 0 && MIME_TYPES[name.slice(dot + 1).toLowerCase()]) || 'application/octet-stream';
}
