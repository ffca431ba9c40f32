import type { Leaves } from '../en';
import type { overviewNamespaces as En } from '../en/overview';

/** German texts of the overview and its first-run guide: the same keys as the English ones. */
export const overviewNamespaces: Leaves<typeof En> = {
  overview: {
    intro: 'Der Zustand aller Bereiche der ausgewählten Organisation in den letzten {{days}} Tagen.',
    backup: 'Sicherung und Wiederherstellung',
    emailArchive: 'E-Mail-Archiv',
    teamsArchive: 'Teams-Archiv',
    dataManagement: 'Datenmanagement',
    lastJob: 'Letzter Auftrag',
    noJob: 'Es ist noch kein Auftrag gelaufen.',
    failedRuns: 'Fehlgeschlagene Läufe',
    covered: 'Abgedeckt',
    saved: 'Gespart',
    saving: 'Ersparnis pro Monat',
    open: '{{area}} öffnen',
    monitor: 'Auftragsmonitor',
    monitorOf: 'Auftragsmonitor: {{area}}',
    state: 'Zustand',
    health: {
      failed: 'Fehlgeschlagen',
      warnings: 'Warnungen',
      fine: 'In Ordnung',
      running: 'Läuft',
      pending: 'Wartet',
      none: 'Noch kein Lauf',
      quiet: 'Kein Lauf in {{days}} Tagen',
    },
    runs: {
      title: 'Läufe pro Tag',
      summary_one:
        '{{count}} Lauf in {{days}} Tagen: {{failed}} fehlgeschlagen, {{warnings}} mit Warnungen, {{fine}} in Ordnung.',
      summary_other:
        '{{count}} Läufe in {{days}} Tagen: {{failed}} fehlgeschlagen, {{warnings}} mit Warnungen, {{fine}} in Ordnung.',
      open_one: '{{count}} ist noch nicht beendet.',
      open_other: '{{count}} sind noch nicht beendet.',
      day: '{{date}}: {{runs}}',
      none: 'Kein Lauf in den letzten {{days}} Tagen.',
      failed: 'Die Läufe der letzten {{days}} Tage konnten nicht geladen werden.',
    },
    license: 'Lizenz',
    full: 'Volllizenz: keine Beschränkungen.',
    trial: 'Testlizenz',
    backupJobsLeft: 'Verbleibende Sicherungsaufträge',
    restoresLeft: 'Verbleibende Wiederherstellungen',
    failures: 'Letzte Fehler',
    noFailures: 'In letzter Zeit ist kein Lauf fehlgeschlagen.',
    failed: 'Die Übersicht konnte nicht geladen werden.',
  },
  firstRun: {
    title: 'Das Portal einrichten',
    intro:
      'Fünf Schritte schützen die Microsoft-365-Daten Ihrer Organisation. Jeder wird abgehakt, sobald das Portal ihn erledigt sieht.',
    progress: '{{done}} von {{total}} Schritten erledigt',
    done: 'Erledigt',
    todo: 'Offen',
    hide: 'Anleitung ausblenden',
    allDone: 'Alle Schritte sind erledigt: Das Portal schützt Ihre Organisation.',
    hidden: 'Die Anleitung ist ausgeblendet. Sie können sie im Hilfe-Center wieder einblenden.',
    openHelp: 'Hilfe-Center öffnen',
    steps: {
      tenant: {
        title: 'Den Microsoft-365-Mandanten verbinden',
        text: 'Unter Konfiguration, Mandanten: per Administratorzustimmung mit der Anwendungs-ID und dem geheimen Clientschlüssel der App-Registrierung verbinden, oder alle Angaben von Hand eingeben.',
        done: 'Verbunden: {{name}}.',
        action: 'Mandanten verbinden',
      },
      connection: {
        title: 'Die Verbindung testen und die Berechtigungen erteilen',
        text: 'Unter Konfiguration, Mandanten: die Verbindung testen. Der Test nennt jede Microsoft-Graph-Anwendungsberechtigung, die der App-Registrierung fehlt; diese mit Administratorzustimmung erteilen und erneut testen.',
        notTested: 'Die Verbindung wurde noch nicht getestet.',
        failed: 'Der letzte Test ist fehlgeschlagen: {{reason}}',
        works: 'Der letzte Test hat Microsoft 365 erreicht.',
        missing:
          'Fehlende Berechtigungen: {{permissions}}. Erteilen Sie sie mit Administratorzustimmung und testen Sie erneut.',
        done: 'Der letzte Test war mit allen Berechtigungen erfolgreich ({{at}}).',
        action: 'Verbindung testen',
      },
      locations: {
        title: 'Speicherorte wählen',
        text: 'Unter Konfiguration, Speicherorte: wählen, wohin Sicherungen und Archive gehen: in den eigenen Speicher des Portals, einen Azure-Blob-Storage-Container oder einen S3-Bucket.',
        action: 'Speicherort hinzufügen',
      },
      backup: {
        title: 'Den ersten Sicherungsauftrag anlegen',
        text: 'OneDrive-Konten, Websites oder Teams für die Sicherung wählen, dazu den Speicherort und den Zeitplan.',
        done_one:
          '{{count}} Sicherungsauftrag. Was er gesichert hat, stellen Sie unter Sicherung und Wiederherstellung, Wiederherstellung wieder her.',
        done_other:
          '{{count}} Sicherungsaufträge. Was sie gesichert haben, stellen Sie unter Sicherung und Wiederherstellung, Wiederherstellung wieder her.',
        action: 'Sicherungsauftrag anlegen',
        restore: 'Dateien wiederherstellen',
      },
      mail: {
        title: 'E-Mails archivieren',
        text: 'Einen Archivierungsauftrag für die Postfächer anlegen, deren E-Mails aufbewahrt werden müssen.',
        done_one: '{{count}} E-Mail-Archivierungsauftrag.',
        done_other: '{{count}} E-Mail-Archivierungsaufträge.',
        action: 'Archivierungsauftrag anlegen',
      },
    },
    help: {
      title: 'Einrichtungsanleitung',
      text: 'Die Übersicht zeigt die Schritte zur Einrichtung des Portals, jeden abgehakt, sobald er erledigt ist. Blenden Sie sie jederzeit wieder ein.',
      reopen: 'Einrichtungsanleitung anzeigen',
    },
  },
};
