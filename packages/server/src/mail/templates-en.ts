/** The notification mails in English (British spelling: licence, organisation), as the portal's English pages write. */
import { formatsOf, type MailBlock, type MailDocument } from './mail-document.js';
import type { MailTemplates, ReportArea } from './templates.js';

const plural = (n: number, one: string, other: string) => `${n.toLocaleString('en-GB')} ${n === 1 ? one : other}`;

const FOOTER: MailBlock = {
  kind: 'paragraph',
  text: 'You receive this mail because of your notification settings in the portal (Account settings, Notifications).',
};

const AREAS: Record<ReportArea, string> = {
  oneDrive: 'OneDrive backup',
  sharePoint: 'SharePoint backup',
  teams: 'Teams backup',
  mailArchive: 'Mail archive',
  teamsArchive: 'Teams archive',
};

const ATTENTION = { critical: 'Critical', warning: 'Warning', ok: 'OK' } as const;

export const englishTemplates: MailTemplates = {
  runEnded({ job, tenant, status, message, link }): MailDocument {
    const ended = status === 'failed' ? 'failed' : 'finished';
    return {
      subject: `Job "${job}" ${ended} (${tenant})`,
      blocks: [
        { kind: 'paragraph', text: `The job "${job}" of ${tenant} ${ended}: ${message}` },
        { kind: 'link', label: 'See the run in the portal', href: link },
        FOOTER,
      ],
    };
  },

  dailySummary({ from, to, timeZone, groups }): MailDocument {
    const f = formatsOf('en', timeZone);
    const runs = groups.flatMap((g) => g.runs);
    const failed = runs.filter((r) => r.outcome === 'failed').length;
    const warned = runs.length - failed;
    return {
      subject: `Daily summary: ${plural(failed, 'failed run', 'failed runs')}, ${plural(warned, 'run', 'runs')} with warnings`,
      blocks: [
        {
          kind: 'paragraph',
          text: `Runs that failed or ended with warnings between ${f.dateTime(from)} and ${f.dateTime(to)}: ${plural(failed, 'failed run', 'failed runs')}, ${plural(warned, 'run', 'runs')} with warnings.`,
        },
        ...groups.flatMap((group): MailBlock[] => [
          { kind: 'heading', text: `${group.organisation}: ${group.tenant}` },
          {
            kind: 'list',
            items: group.runs.map((run) => ({
              text: `${run.outcome === 'failed' ? 'Failed' : plural(run.warnings, 'warning', 'warnings')}: ${run.job}, ${f.dateTime(run.at)}: ${run.message}`,
              href: run.link,
            })),
          },
        ]),
        FOOTER,
      ],
    };
  },

  weeklyCustomer({ organisation, from, to, timeZone, areas }): MailDocument {
    const f = formatsOf('en', timeZone);
    const runs = areas.reduce((n, a) => n + a.runs, 0);
    const failed = areas.reduce((n, a) => n + a.failed, 0);
    return {
      subject: `Weekly report for ${organisation}: ${plural(runs, 'run', 'runs')}, ${f.number(failed)} failed`,
      blocks: [
        {
          kind: 'paragraph',
          text: `Your areas from ${f.dateTime(from)} to ${f.dateTime(to)}: ${plural(runs, 'run', 'runs')}, ${f.number(failed)} failed.`,
        },
        {
          kind: 'table',
          head: ['Area', 'Runs', 'Failed', 'Last success', 'Stored'],
          rows: areas.map((a) => [
            AREAS[a.area],
            f.number(a.runs),
            f.number(a.failed),
            a.lastSuccess ? f.dateTime(a.lastSuccess) : 'never',
            f.bytes(a.storedBytes),
          ]),
        },
        { kind: 'list', items: areas.map((a) => ({ text: `${AREAS[a.area]}: job monitor`, href: a.link })) },
        FOOTER,
      ],
    };
  },

  weeklyPartner({ partner, from, to, timeZone, clients, link }): MailDocument {
    const f = formatsOf('en', timeZone);
    const needing = clients.filter((c) => c.attention !== 'ok').length;
    return {
      subject: `Weekly report for ${partner}: ${f.number(needing)} of ${plural(clients.length, 'client needs', 'clients need')} attention`,
      blocks: [
        {
          kind: 'paragraph',
          text: `Your clients from ${f.dateTime(from)} to ${f.dateTime(to)}, those needing attention first: ${f.number(needing)} of ${plural(clients.length, 'client', 'clients')}.`,
        },
        {
          kind: 'table',
          head: ['Client', 'Attention', 'Failures 24 h', 'Failures 7 days', 'Last success', 'Stored'],
          rows: clients.map((c) => [
            c.name,
            ATTENTION[c.attention],
            f.number(c.failed24h),
            f.number(c.failed7d),
            c.lastSuccess ? f.dateTime(c.lastSuccess) : 'never',
            f.bytes(c.storedBytes),
          ]),
        },
        { kind: 'link', label: 'Open your clients in the portal', href: link },
        FOOTER,
      ],
    };
  },

  licenceExpiry({ organisation, validUntil, daysLeft, timeZone, link }): MailDocument {
    const f = formatsOf('en', timeZone);
    const ended = daysLeft <= 0;
    return {
      subject: ended
        ? `The licence of ${organisation} has expired`
        : `The licence of ${organisation} ends in ${plural(daysLeft, 'day', 'days')}`,
      blocks: [
        {
          kind: 'paragraph',
          text: ended
            ? `The licence of ${organisation} ended on ${f.date(validUntil)}. Ask your partner or the portal's operator to renew it.`
            : `The licence of ${organisation} ends on ${f.date(validUntil)}, in ${plural(daysLeft, 'day', 'days')}. Ask your partner or the portal's operator to renew it in time.`,
        },
        { kind: 'link', label: 'See the licence in the portal', href: link },
        FOOTER,
      ],
    };
  },

  testMail({ to, link }): MailDocument {
    return {
      subject: 'Test mail from the Compliance Portal',
      blocks: [
        { kind: 'paragraph', text: `This is a test mail. Your notifications reach ${to}.` },
        { kind: 'link', label: 'Your notification settings', href: link },
      ],
    };
  },
};
