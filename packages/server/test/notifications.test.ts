/**
 * The notification mails through a real SMTP server (smtp-server on 127.0.0.1) and read back by a
 * real MIME parser (mailparser): the mail about a failed run, the daily summary, the weekly report
 * (a customer's areas, a partner's fleet), the licence warnings and the test mail, each in English
 * and German; that a setting turned off sends nothing;
 * that a period's mail goes out once, whatever restarts and however many processes pass over it.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../src/config.js';
import { notifyRunEnded } from '../src/jobs/notify.js';
import { fleetFor } from '../src/modules/fleet/service.js';
import { startNotificationScheduler } from '../src/modules/notifications/scheduler.js';
import { sendDueNotifications } from '../src/modules/notifications/service.js';
import { ADMIN, PARTNER, seededUser, sessionToken, TENANTS, testContext, useTestServer } from './helpers.js';

interface Received {
  to: string[];
  mail: ParsedMail;
}

/** An address the SMTP server refuses (550), as a mail server refuses an unknown mailbox. */
const REFUSED = 'refused@contoso.example';
const PUBLIC_URL = 'http://portal.test';

const received: Received[] = [];
// The fleet is read afresh for every report (the tests change its runs between reports).
const overrides: Partial<Config> = { publicUrl: PUBLIC_URL, fleetSnapshotMs: 0 };
let smtp: SMTPServer;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address === REFUSED) {
        callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      } else callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), mail });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  overrides.smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(resolve));
});

const server = useTestServer(overrides);

/** The mails received for `to`, each read back from its MIME. */
const mailsTo = (to: string) => received.filter((r) => r.to.includes(to)).map((r) => r.mail);
const only = (to: string) => {
  const mails = mailsTo(to);
  expect(mails, `mails to ${to}`).toHaveLength(1);
  return mails[0] as ParsedMail;
};

const tokens: Record<string, string> = {};
const ids = { contoso: '', northwind: '', fabrikam: '' };
const jobs = { contoso: randomUUID(), northwind: randomUUID() };

async function saveSettings(email: string, settings: Record<string, unknown>) {
  tokens[email] ??= await sessionToken(server, email);
  const saved = await server.request({
    method: 'PUT',
    url: '/api/admin/notifications',
    token: tokens[email],
    body: {
      jobFailed: true,
      jobFinished: false,
      dailySummary: true,
      weeklyReport: false,
      licenseExpiry: true,
      ...settings,
    },
  });
  expect(saved.statusCode, saved.body).toBe(200);
}

async function addRun(job: string, tenant: string, status: string, finished: string, message: string, warnings = 0) {
  const runId = randomUUID();
  await server.ctx.db.query(
    `insert into job_runs (run_id, job_id, tenant_id, trigger, status, run_after, created_at, started, finished,
       message, warnings)
     values ($1, $2, $3, 'schedule', $4, $5, $5, $5, $5, $6, $7)`,
    [runId, job, tenant, status, finished, message, warnings],
  );
  return runId;
}

const runs = { contosoFailed: '', contosoWarned: '', contosoOld: '', northwindFailed: '', contosoFine: '' };

beforeAll(async () => {
  const db = server.ctx.db;
  for (const [key, name] of [
    ['contoso', 'Contoso'],
    ['northwind', 'Northwind Traders'],
    ['fabrikam', 'Fabrikam Partners'],
  ] as const) {
    const [row] = await db.query<{ id: string }>('select id from organisations where name = $1', [name]);
    ids[key] = row?.id ?? '';
  }
  // Contoso works in Berlin (UTC+1 in November): its mails are due at 07:00 there, 06:00 UTC.
  await db.query(`update organisations set time_zone = 'Europe/Berlin' where id = $1`, [ids.contoso]);
  await db.query('update organisations set license_valid_until = null');
  for (const [job, tenant, name, type] of [
    [jobs.contoso, TENANTS.contoso, 'OneDrive nightly', 'backup'],
    [jobs.northwind, TENANTS.northwind, 'Mail archive', 'exchangeArchive'],
  ] as const) {
    await db.query(`insert into jobs (job_id, tenant_id, name, type, application) values ($1, $2, $3, $4, $5)`, [
      job,
      tenant,
      name,
      type,
      type === 'backup' ? 'onedrive' : 'exchange',
    ]);
  }
  // The clock stands at Monday 2026-11-02 08:00 UTC: Contoso's summary covers Sunday 06:00 to Monday
  // 06:00 UTC, Fabrikam's (UTC) Sunday 07:00 to Monday 07:00.
  runs.contosoFailed = await addRun(
    jobs.contoso,
    TENANTS.contoso,
    'failed',
    '2026-11-01T22:15:00Z',
    'Drive quota exceeded',
  );
  runs.contosoWarned = await addRun(
    jobs.contoso,
    TENANTS.contoso,
    'finished',
    '2026-11-02T02:00:00Z',
    'Finished with items not processed',
    3,
  );
  runs.contosoFine = await addRun(jobs.contoso, TENANTS.contoso, 'finished', '2026-11-02T03:00:00Z', 'Finished');
  runs.contosoOld = await addRun(jobs.contoso, TENANTS.contoso, 'failed', '2026-10-31T22:00:00Z', 'Old failure');
  // What Contoso's OneDrive backup stores (1.5 GB) and Northwind's mail archive (2 KB).
  await db.query(`insert into backup_usage (job_id, source_id, items, bytes) values ($1, 'drive-1', 10, $2)`, [
    jobs.contoso,
    1.5 * 1024 ** 3,
  ]);
  await db.query(
    `insert into archive_usage (tenant_id, kind, source, items, bytes) values ($1, 'mail', 'mailbox-1', 2, 2048)`,
    [TENANTS.northwind],
  );
  runs.northwindFailed = await addRun(
    jobs.northwind,
    TENANTS.northwind,
    'failed',
    '2026-11-02T06:30:00Z',
    'Mailbox not found',
  );
});

beforeEach(async () => {
  received.length = 0;
  server.clock.set('2026-11-02T08:00:00.000Z');
  await server.ctx.db.query('delete from notification_sends');
  await server.ctx.db.query('update organisations set license_valid_until = null');
});

const link = (path: string, type: string, run: string) => `${PUBLIC_URL}${path}?type=${type}&run=${run}`;

const TEXTS = {
  en: {
    runFailed: {
      subject: 'Job "OneDrive nightly" failed (contoso.onmicrosoft.com)',
      linkLabel: 'See the run in the portal',
    },
    weekly: {
      customer: 'Weekly report for Contoso: 4 runs, 2 failed',
      area: 'Area: OneDrive backup; Runs: 4; Failed: 2; Last success: 2 Nov 2026, 04:00; Stored: 1.5 GB',
      partner: (n: number) => `Weekly report for Fabrikam Partners: ${n} of 3 clients need attention`,
      northwind:
        'Client: Northwind Traders; Attention: Critical; Failures 24 h: 1; Failures 7 days: 1; Last success: never; Stored: 2 KB',
    },
    daily: {
      admin: 'Daily summary: 1 failed run, 1 run with warnings',
      partner: 'Daily summary: 1 failed run, 0 runs with warnings',
      failed: 'Failed: OneDrive nightly',
      warned: '3 warnings: OneDrive nightly',
    },
    licence: {
      in10: 'The licence of Northwind Traders ends in 10 days',
      in2: 'The licence of Northwind Traders ends in 2 days',
      ended: 'The licence of Northwind Traders has expired',
      date: '12 November 2026',
    },
    test: { subject: 'Test mail from the Compliance Portal', text: 'Your notifications reach' },
  },
  de: {
    runFailed: {
      subject: 'Auftrag „OneDrive nightly“ fehlgeschlagen (contoso.onmicrosoft.com)',
      linkLabel: 'Lauf im Portal ansehen',
    },
    weekly: {
      customer: 'Wochenbericht für Contoso: 4 Läufe, 2 fehlgeschlagen',
      area: 'Bereich: OneDrive-Sicherung; Läufe: 4; Fehlgeschlagen: 2; Letzter Erfolg: 02.11.2026, 04:00; Gespeichert: 1,5 GB',
      partner: (n: number) => `Wochenbericht für Fabrikam Partners: ${n} von 3 Kunden brauchen Aufmerksamkeit`,
      northwind:
        'Kunde: Northwind Traders; Handlungsbedarf: Kritisch; Fehler 24 Std.: 1; Fehler 7 Tage: 1; Letzter Erfolg: nie; Gespeichert: 2 KB',
    },
    daily: {
      admin: 'Tägliche Zusammenfassung: 1 fehlgeschlagener Lauf, 1 Lauf mit Warnungen',
      partner: 'Tägliche Zusammenfassung: 1 fehlgeschlagener Lauf, 0 Läufe mit Warnungen',
      failed: 'Fehlgeschlagen: OneDrive nightly',
      warned: '3 Warnungen: OneDrive nightly',
    },
    licence: {
      in10: 'Die Lizenz von Northwind Traders endet in 10 Tagen',
      in2: 'Die Lizenz von Northwind Traders endet in 2 Tagen',
      ended: 'Die Lizenz von Northwind Traders ist abgelaufen',
      date: '12. November 2026',
    },
    test: { subject: 'Testnachricht vom Compliance Portal', text: 'Ihre Benachrichtigungen erreichen' },
  },
} as const;

describe.each(['en', 'de'] as const)('the mails in %s', (language) => {
  const texts = TEXTS[language];

  beforeEach(async () => {
    await saveSettings(ADMIN, { language });
    await saveSettings(PARTNER, { language });
  });

  it('tell a failed run to the tenant organisation’s users, with a link to the run on its monitor', async () => {
    await notifyRunEnded(
      server.ctx,
      { run_id: runs.contosoFailed, job_id: jobs.contoso, tenant_id: TENANTS.contoso },
      'failed',
      'Drive quota exceeded',
    );
    const mail = only(ADMIN);
    expect(mail.subject).toBe(texts.runFailed.subject);
    expect(mail.text).toContain('Drive quota exceeded');
    expect(mail.text).toContain(
      `${texts.runFailed.linkLabel}: ${link('/backup-and-restore/job-monitor', 'backup', runs.contosoFailed)}`,
    );
    expect(mail.html).toContain(
      `href="${link('/backup-and-restore/job-monitor', 'backup', runs.contosoFailed).replace('&', '&amp;')}"`,
    );
    // Contoso has no partner: nobody else acts for it.
    expect(received).toHaveLength(1);
  });

  it('send the daily summary of each organisation the user acts for: failures and warnings of the last 24 hours', async () => {
    expect(await sendDueNotifications(server.ctx)).toBe(2);
    const admin = only(ADMIN);
    expect(admin.subject).toBe(texts.daily.admin);
    expect(admin.text).toContain('Contoso: contoso.onmicrosoft.com');
    expect(admin.text).toContain(`${texts.daily.failed}`);
    expect(admin.text).toContain('Drive quota exceeded');
    expect(admin.text).toContain(texts.daily.warned);
    expect(admin.text).toContain(link('/backup-and-restore/job-monitor', 'backup', runs.contosoFailed));
    expect(admin.text).toContain(link('/backup-and-restore/job-monitor', 'backup', runs.contosoWarned));
    // Older than 24 hours, another organisation's, or finished without warnings: not in it.
    expect(admin.text).not.toContain('Old failure');
    expect(admin.text).not.toContain(runs.contosoFine);
    expect(admin.text).not.toContain('Northwind');

    // The partner's summary: its clients' runs (Northwind's failure at 06:30 UTC is before 07:00 UTC).
    const partner = only(PARTNER);
    expect(partner.subject).toBe(texts.daily.partner);
    expect(partner.text).toContain('Northwind Traders: northwind.onmicrosoft.com');
    expect(partner.text).toContain('Mail archive');
    expect(partner.text).toContain('Mailbox not found');
    expect(partner.text).toContain(link('/archive/job-monitor', 'exchangeArchive', runs.northwindFailed));
    expect(partner.text).not.toContain('Contoso');
    expect(partner.html).toContain('<h2');
  });

  it('send the weekly report: a customer’s areas, a partner’s clients from the fleet', async () => {
    await saveSettings(ADMIN, { language, dailySummary: false, licenseExpiry: false, weeklyReport: true });
    await saveSettings(PARTNER, { language, dailySummary: false, licenseExpiry: false, weeklyReport: true });
    expect(await sendDueNotifications(server.ctx)).toBe(2);

    const customer = only(ADMIN);
    expect(customer.subject).toBe(texts.weekly.customer);
    expect(customer.text).toContain(texts.weekly.area);
    expect(customer.text).toContain(`${PUBLIC_URL}/backup-and-restore/job-monitor?type=backup`);
    // Contoso has no job of the other areas: they are not listed.
    expect(customer.text).not.toMatch(/SharePoint|Teams/);
    expect(customer.html).toContain('<table');

    const fleet = await fleetFor(server.ctx, await seededUser(server, PARTNER));
    const partner = only(PARTNER);
    expect(fleet.total).toBe(3);
    expect(partner.subject).toBe(texts.weekly.partner(fleet.counts.critical + fleet.counts.warning));
    expect(partner.text).toContain(texts.weekly.northwind);
    expect(partner.text).toContain(`${PUBLIC_URL}/partner-setup`);
    for (const client of ['Tailspin Toys', 'Woodgrove Bank']) expect(partner.text).toContain(client);

    // Sent once a week: later in the week, nothing; the next Monday, the next one. (A process of its
    // own: the fleet keeps its snapshot per process, and one read next week is no snapshot of this.)
    const later = testContext(server.ctx.db, overrides);
    later.clock.set('2026-11-05T08:00:00.000Z');
    expect(await sendDueNotifications(later.ctx)).toBe(0);
    later.clock.set('2026-11-09T08:00:00.000Z');
    expect(await sendDueNotifications(later.ctx)).toBe(2);
  });

  it('warn of a licence’s end 14 and 3 days before and when it has ended, each once, with a link to the licence', async () => {
    await server.ctx.db.query('update organisations set license_valid_until = $2 where id = $1', [
      ids.northwind,
      '2026-11-12T08:00:00Z',
    ]);
    await saveSettings(ADMIN, { language, dailySummary: false });
    await saveSettings(PARTNER, { language, dailySummary: false });
    expect(await sendDueNotifications(server.ctx)).toBe(1);
    const first = only(PARTNER);
    expect(first.subject).toBe(texts.licence.in10);
    expect(first.text).toContain(texts.licence.date);
    expect(first.text).toContain(`${PUBLIC_URL}/configuration?tab=licence`);
    // Contoso's administrator does not act for Northwind.
    expect(mailsTo(ADMIN)).toHaveLength(0);

    server.clock.set('2026-11-06T08:00:00.000Z');
    expect(await sendDueNotifications(server.ctx)).toBe(0);

    server.clock.set('2026-11-10T08:00:00.000Z');
    received.length = 0;
    expect(await sendDueNotifications(server.ctx)).toBe(1);
    expect(only(PARTNER).subject).toBe(texts.licence.in2);

    server.clock.set('2026-11-12T08:01:00.000Z');
    received.length = 0;
    expect(await sendDueNotifications(server.ctx)).toBe(1);
    const ended = only(PARTNER);
    expect(ended.subject).toBe(texts.licence.ended);
    expect(ended.text).toContain(texts.licence.date);
    expect(ended.text).toContain(`${PUBLIC_URL}/configuration?tab=licence`);

    server.clock.set('2026-11-13T08:00:00.000Z');
    expect(await sendDueNotifications(server.ctx)).toBe(0);
  });

  it('send a test mail to the notification address, in the user’s language', async () => {
    await saveSettings(ADMIN, { language, email: 'ops@contoso.example' });
    const answer = await server.request({
      method: 'POST',
      url: '/api/admin/notifications/test',
      token: tokens[ADMIN] as string,
      body: {},
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({
      to: 'ops@contoso.example',
      message: 'A test mail was sent to ops@contoso.example.',
    });
    const mail = only('ops@contoso.example');
    expect(mail.subject).toBe(texts.test.subject);
    expect(mail.text).toContain(`${texts.test.text} ops@contoso.example.`);
    expect(mail.text).toContain(`${PUBLIC_URL}/account/settings?tab=notifications`);
    expect(mailsTo(ADMIN)).toHaveLength(0);
  });
});

describe('a test mail the mail server refuses', () => {
  it('is refused with 502 mailNotSent', async () => {
    await saveSettings(ADMIN, { email: REFUSED });
    const answer = await server.request({
      method: 'POST',
      url: '/api/admin/notifications/test',
      token: tokens[ADMIN] as string,
      body: {},
    });
    expect(answer.statusCode).toBe(502);
    expect(answer.json()).toMatchObject({ code: 'mailNotSent' });
    expect(received).toHaveLength(0);
  });

  it('goes to the account’s address when the settings name none', async () => {
    await saveSettings(ADMIN, {});
    const answer = await server.request({
      method: 'POST',
      url: '/api/admin/notifications/test',
      token: tokens[ADMIN] as string,
      body: {},
    });
    expect(answer.json()).toMatchObject({ to: ADMIN });
    // No language chosen: English.
    expect(only(ADMIN).subject).toBe(TEXTS.en.test.subject);
  });
});

describe('the scheduled mails', () => {
  it('send nothing for a setting turned off', async () => {
    await server.ctx.db.query('update organisations set license_valid_until = $2 where id = $1', [
      ids.northwind,
      '2026-11-12T08:00:00Z',
    ]);
    await saveSettings(ADMIN, { dailySummary: false, licenseExpiry: false });
    await saveSettings(PARTNER, { dailySummary: false, licenseExpiry: false });
    expect(await sendDueNotifications(server.ctx)).toBe(0);
    expect(received).toHaveLength(0);
  });

  it('send a day without failures nothing, and a summary before its hour nothing', async () => {
    await saveSettings(ADMIN, {});
    await saveSettings(PARTNER, {});
    // Tuesday 08:00 UTC: the 24 hours before 07:00 had no failure at all.
    server.clock.set('2026-11-03T08:00:00.000Z');
    expect(await sendDueNotifications(server.ctx)).toBe(0);
    // Monday 05:59 UTC, 06:59 in Berlin: Contoso's Monday summary is not due yet, and Sunday's
    // was due more than 6 hours ago.
    server.clock.set('2026-11-02T05:59:00.000Z');
    expect(await sendDueNotifications(server.ctx)).toBe(0);
    server.clock.set('2026-11-02T06:00:00.000Z');
    expect(await sendDueNotifications(server.ctx)).toBe(1);
    expect(only(ADMIN).subject).toBe(TEXTS.en.daily.admin);
    expect(received).toHaveLength(1);
  });

  it('send each period’s mail once: a second pass, a restart and a second process send nothing more', async () => {
    await saveSettings(ADMIN, {});
    await saveSettings(PARTNER, {});
    await server.ctx.db.query('update organisations set license_valid_until = $2 where id = $1', [
      ids.northwind,
      '2026-11-12T08:00:00Z',
    ]);
    // Two processes on one database pass at once: each mail goes out once.
    const other = testContext(server.ctx.db, overrides);
    other.clock.set('2026-11-02T08:00:30.000Z');
    const [a, b] = await Promise.all([sendDueNotifications(server.ctx), sendDueNotifications(other.ctx)]);
    expect(a + b).toBe(3);
    expect(mailsTo(ADMIN).map((m) => m.subject)).toEqual([TEXTS.en.daily.admin]);
    expect(
      mailsTo(PARTNER)
        .map((m) => m.subject)
        .sort(),
    ).toEqual([TEXTS.en.daily.partner, TEXTS.en.licence.in10].sort());
    // Later the same day, and after a restart (a context of its own): nothing more.
    server.clock.set('2026-11-02T11:00:00.000Z');
    expect(await sendDueNotifications(server.ctx)).toBe(0);
    const restarted = testContext(server.ctx.db, overrides);
    restarted.clock.set('2026-11-02T12:00:00.000Z');
    expect(await sendDueNotifications(restarted.ctx)).toBe(0);
    expect(received).toHaveLength(3);
    const rows = await server.ctx.db.query<{ kind: string; outcome: string }>(
      'select kind, outcome from notification_sends order by kind, user_id',
    );
    expect(rows.filter((r) => r.outcome === 'sent')).toHaveLength(3);
  });

  it('leave a mail claimed by a process that died before sending it unsent, and try a refused one again', async () => {
    const [admin] = await server.ctx.db.query<{ id: string }>('select id from users where email = $1', [ADMIN]);
    await saveSettings(ADMIN, { licenseExpiry: false });
    await saveSettings(PARTNER, { email: REFUSED, licenseExpiry: false });
    await server.ctx.db.query(
      `insert into notification_sends (user_id, kind, period, claimed_at) values ($1, 'dailySummary', '2026-11-02', $2)`,
      [admin?.id, '2026-11-02T06:00:01Z'],
    );
    expect(await sendDueNotifications(server.ctx)).toBe(0);
    expect(received).toHaveLength(0);
    // The partner's address was refused: its claim was given up, and the next pass sends it.
    await saveSettings(PARTNER, { email: 'ops@fabrikam.example', licenseExpiry: false });
    server.clock.advance(60_000);
    expect(await sendDueNotifications(server.ctx)).toBe(1);
    expect(only('ops@fabrikam.example').subject).toBe(TEXTS.en.daily.partner);
  });

  it('are sent by the scheduler the server starts, on the context’s clock', async () => {
    await saveSettings(ADMIN, {});
    await saveSettings(PARTNER, { dailySummary: false, licenseExpiry: false });
    const scheduler = startNotificationScheduler(server.ctx, 20);
    await expect.poll(() => mailsTo(ADMIN).length, { timeout: 5000 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await scheduler.stop();
    expect(received).toHaveLength(1);
  });
});
