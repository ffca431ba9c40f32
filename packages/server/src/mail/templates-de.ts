/** Die Benachrichtigungen auf Deutsch, in den Worten der deutschen Seiten des Portals (Auftrag, Lauf, Mandant). */
import { formatsOf, type MailBlock, type MailDocument } from './mail-document.js';
import type { MailTemplates, ReportArea } from './templates.js';

const plural = (n: number, one: string, other: string) => `${n.toLocaleString('de-DE')} ${n === 1 ? one : other}`;

const FOOTER: MailBlock = {
  kind: 'paragraph',
  text: 'Sie erhalten diese E-Mail aufgrund Ihrer Benachrichtigungseinstellungen im Portal (Kontoeinstellungen, Benachrichtigungen).',
};

const AREAS: Record<ReportArea, string> = {
  oneDrive: 'OneDrive-Sicherung',
  sharePoint: 'SharePoint-Sicherung',
  teams: 'Teams-Sicherung',
  mailArchive: 'E-Mail-Archiv',
  teamsArchive: 'Teams-Archiv',
};

const ATTENTION = { critical: 'Kritisch', warning: 'Warnung', ok: 'In Ordnung' } as const;

export const germanTemplates: MailTemplates = {
  runEnded({ job, tenant, status, message, link }): MailDocument {
    const failed = status === 'failed';
    return {
      subject: `Auftrag „${job}“ ${failed ? 'fehlgeschlagen' : 'abgeschlossen'} (${tenant})`,
      blocks: [
        {
          kind: 'paragraph',
          text: `Der Auftrag „${job}“ von ${tenant} ist ${failed ? 'fehlgeschlagen' : 'abgeschlossen'}: ${message}`,
        },
        { kind: 'link', label: 'Lauf im Portal ansehen', href: link },
        FOOTER,
      ],
    };
  },

  dailySummary({ from, to, timeZone, groups }): MailDocument {
    const f = formatsOf('de', timeZone);
    const runs = groups.flatMap((g) => g.runs);
    const failed = runs.filter((r) => r.outcome === 'failed').length;
    const warned = runs.length - failed;
    const counts = `${plural(failed, 'fehlgeschlagener Lauf', 'fehlgeschlagene Läufe')}, ${plural(warned, 'Lauf', 'Läufe')} mit Warnungen`;
    return {
      subject: `Tägliche Zusammenfassung: ${counts}`,
      blocks: [
        {
          kind: 'paragraph',
          text: `Läufe, die zwischen ${f.dateTime(from)} und ${f.dateTime(to)} fehlgeschlagen oder mit Warnungen geendet sind: ${counts}.`,
        },
        ...groups.flatMap((group): MailBlock[] => [
          { kind: 'heading', text: `${group.organisation}: ${group.tenant}` },
          {
            kind: 'list',
            items: group.runs.map((run) => ({
              text: `${run.outcome === 'failed' ? 'Fehlgeschlagen' : plural(run.warnings, 'Warnung', 'Warnungen')}: ${run.job}, ${f.dateTime(run.at)}: ${run.message}`,
              href: run.link,
            })),
          },
        ]),
        FOOTER,
      ],
    };
  },

  weeklyCustomer({ organisation, from, to, timeZone, areas }): MailDocument {
    const f = formatsOf('de', timeZone);
    const runs = areas.reduce((n, a) => n + a.runs, 0);
    const failed = areas.reduce((n, a) => n + a.failed, 0);
    return {
      subject: `Wochenbericht für ${organisation}: ${plural(runs, 'Lauf', 'Läufe')}, ${f.number(failed)} fehlgeschlagen`,
      blocks: [
        {
          kind: 'paragraph',
          text: `Ihre Bereiche vom ${f.dateTime(from)} bis ${f.dateTime(to)}: ${plural(runs, 'Lauf', 'Läufe')}, ${f.number(failed)} fehlgeschlagen.`,
        },
        {
          kind: 'table',
          head: ['Bereich', 'Läufe', 'Fehlgeschlagen', 'Letzter Erfolg', 'Gespeichert'],
          rows: areas.map((a) => [
            AREAS[a.area],
            f.number(a.runs),
            f.number(a.failed),
            a.lastSuccess ? f.dateTime(a.lastSuccess) : 'nie',
            f.bytes(a.storedBytes),
          ]),
        },
        { kind: 'list', items: areas.map((a) => ({ text: `${AREAS[a.area]}: Auftragsmonitor`, href: a.link })) },
        FOOTER,
      ],
    };
  },

  weeklyPartner({ partner, from, to, timeZone, clients, link }): MailDocument {
    const f = formatsOf('de', timeZone);
    const needing = clients.filter((c) => c.attention !== 'ok').length;
    return {
      subject: `Wochenbericht für ${partner}: ${f.number(needing)} von ${plural(clients.length, 'Kunde braucht', 'Kunden brauchen')} Aufmerksamkeit`,
      blocks: [
        {
          kind: 'paragraph',
          text: `Ihre Kunden vom ${f.dateTime(from)} bis ${f.dateTime(to)}, die mit Handlungsbedarf zuerst: ${f.number(needing)} von ${plural(clients.length, 'Kunde', 'Kunden')}.`,
        },
        {
          kind: 'table',
          head: ['Kunde', 'Handlungsbedarf', 'Fehler 24 Std.', 'Fehler 7 Tage', 'Letzter Erfolg', 'Gespeichert'],
          rows: clients.map((c) => [
            c.name,
            ATTENTION[c.attention],
            f.number(c.failed24h),
            f.number(c.failed7d),
            c.lastSuccess ? f.dateTime(c.lastSuccess) : 'nie',
            f.bytes(c.storedBytes),
          ]),
        },
        { kind: 'link', label: 'Ihre Kunden im Portal öffnen', href: link },
        FOOTER,
      ],
    };
  },

  licenceExpiry({ organisation, validUntil, daysLeft, timeZone, link }): MailDocument {
    const f = formatsOf('de', timeZone);
    const ended = daysLeft <= 0;
    return {
      subject: ended
        ? `Die Lizenz von ${organisation} ist abgelaufen`
        : `Die Lizenz von ${organisation} endet in ${plural(daysLeft, 'Tag', 'Tagen')}`,
      blocks: [
        {
          kind: 'paragraph',
          text: ended
            ? `Die Lizenz von ${organisation} ist am ${f.date(validUntil)} abgelaufen. Bitten Sie Ihren Partner oder den Betreiber des Portals, sie zu verlängern.`
            : `Die Lizenz von ${organisation} endet am ${f.date(validUntil)}, in ${plural(daysLeft, 'Tag', 'Tagen')}. Bitten Sie Ihren Partner oder den Betreiber des Portals rechtzeitig, sie zu verlängern.`,
        },
        { kind: 'link', label: 'Lizenz im Portal ansehen', href: link },
        FOOTER,
      ],
    };
  },

  testMail({ to, link }): MailDocument {
    return {
      subject: 'Testnachricht vom Compliance Portal',
      blocks: [
        { kind: 'paragraph', text: `Dies ist eine Testnachricht. Ihre Benachrichtigungen erreichen ${to}.` },
        { kind: 'link', label: 'Ihre Benachrichtigungseinstellungen', href: link },
      ],
    };
  },
};
