/**
 * A notification mail as the language modules write it (templates-en.ts, templates-de.ts): a subject
 * and blocks of content, rendered here once into the plain text and the HTML alternative, so that the
 * two parts always say the same and no template builds markup or escapes text itself.
 */
import type { MailMessage } from './mailer.js';

/** The languages mails are written in (the notification settings' `language`). */
export type MailLanguage = 'en' | 'de';

/** One block of a mail's content. A table's cells and every text are plain text, escaped for HTML here. */
export type MailBlock =
  | { kind: 'paragraph'; text: string }
  | { kind: 'heading'; text: string }
  | { kind: 'link'; label: string; href: string }
  | { kind: 'list'; items: readonly { text: string; href?: string }[] }
  | { kind: 'table'; head: readonly string[]; rows: readonly (readonly string[])[] };

export interface MailDocument {
  subject: string;
  blocks: readonly MailBlock[];
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function textOf(block: MailBlock): string {
  switch (block.kind) {
    case 'paragraph':
      return block.text;
    case 'heading':
      return `${block.text}\n${'-'.repeat(Math.min(block.text.length, 72))}`;
    case 'link':
      return `${block.label}: ${block.href}`;
    case 'list':
      return block.items.map((item) => `- ${item.text}${item.href ? `\n  ${item.href}` : ''}`).join('\n');
    case 'table':
      // One line per row, each cell named by its column: a plain-text reader has no columns to align.
      return block.rows.map((row) => `- ${row.map((cell, i) => `${block.head[i]}: ${cell}`).join('; ')}`).join('\n');
  }
}

const CELL = 'padding:4px 8px;border-bottom:1px solid #ddd;text-align:left;vertical-align:top';

function htmlOf(block: MailBlock): string {
  switch (block.kind) {
    case 'paragraph':
      return `<p>${escapeHtml(block.text).replace(/\n/g, '<br>')}</p>`;
    case 'heading':
      return `<h2 style="font-size:16px;margin:20px 0 8px">${escapeHtml(block.text)}</h2>`;
    case 'link':
      return `<p><a href="${escapeHtml(block.href)}">${escapeHtml(block.label)}</a></p>`;
    case 'list':
      return `<ul>${block.items
        .map(
          (item) =>
            `<li>${item.href ? `<a href="${escapeHtml(item.href)}">${escapeHtml(item.text)}</a>` : escapeHtml(item.text)}</li>`,
        )
        .join('')}</ul>`;
    case 'table':
      return `<table style="border-collapse:collapse;font-size:14px"><thead><tr>${block.head
        .map((h) => `<th style="${CELL}">${escapeHtml(h)}</th>`)
        .join('')}</tr></thead><tbody>${block.rows
        .map((row) => `<tr>${row.map((cell) => `<td style="${CELL}">${escapeHtml(cell)}</td>`).join('')}</tr>`)
        .join('')}</tbody></table>`;
  }
}

/** The mail to `to`: its subject, the blocks as plain text (blank lines between them) and as HTML. */
export function renderMail(to: string, doc: MailDocument, language: MailLanguage): MailMessage {
  const link = doc.blocks.find((b) => b.kind === 'link');
  return {
    to,
    subject: doc.subject,
    text: `${doc.blocks.map(textOf).join('\n\n')}\n`,
    html: `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><title>${escapeHtml(
      doc.subject,
    )}</title></head><body style="font-family:Arial,Helvetica,sans-serif;font-size:14px;color:#1a1a1a">${doc.blocks
      .map(htmlOf)
      .join('')}</body></html>`,
    ...(link?.kind === 'link' ? { link: link.href } : {}),
  };
}

const LOCALES: Record<MailLanguage, string> = { en: 'en-GB', de: 'de-DE' };

/** Formatting of figures, dates and sizes as readers of one language expect them, in a time zone. */
export function formatsOf(language: MailLanguage, timeZone: string) {
  const locale = LOCALES[language];
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone });
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone });
  const number = new Intl.NumberFormat(locale);
  const fraction = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  return {
    dateTime: (at: Date) => dateTime.format(at),
    date: (at: Date) => date.format(at),
    number: (n: number) => number.format(n),
    /** 1024-based, as the portal's pages show sizes: "1.5 GB" (English), "1,5 GB" (German). */
    bytes(bytes: number) {
      if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
      const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
      const exponent = Math.min(units.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
      const value = bytes / 1024 ** exponent;
      return `${(exponent === 0 ? number : fraction).format(value)} ${units[exponent]}`;
    },
  };
}
