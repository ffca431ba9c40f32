import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The same content as HTML, sent beside the text as its alternative when given. */
  html?: string;
  /** The link the mail is about, logged in demo mode when mail goes to the outbox. */
  link?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * Sends through SMTP when `smtpUrl` is set; otherwise writes each mail as an .eml file into
 * `<dataDir>/outbox`. With `logLinks` (demo mode) the outbox also logs each mail's link, so a demo on
 * one machine signs in without opening files; otherwise links (reset and confirmation codes, which
 * stand for the account) never reach the log.
 */
export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  dataDir: string;
  log: FastifyBaseLogger;
  logLinks?: boolean;
}): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          ...(message.html ? { html: message.html } : {}),
        });
      },
    };
  }
  const outbox = join(options.dataDir, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
      });
      mkdirSync(outbox, { recursive: true });
      const file = join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`);
      writeFileSync(file, info.message as Buffer);
      options.log.info(
        { to: message.to, subject: message.subject, ...(options.logLinks ? { link: message.link } : {}), file },
        'mail written to outbox',
      );
    },
  };
}
