import type { Leaves } from '../en';
import type { jobRunsNamespaces as En } from '../en/job-runs';

/** German texts of a run's stop, retry and download, and of a jobs list's last run: the same keys as the English ones. */
export const jobRunsNamespaces: Leaves<typeof En> = {
  jobRuns: {
    actions: 'Aktionen',
    actionsOf: 'Aktionen des Laufs von „{{name}}“',
    stop: 'Anhalten',
    retry: 'Wiederholen',
    download: 'Herunterladen ({{size}})',
    downloadFailed: 'Der Download von „{{name}}“ konnte nicht abgerufen werden.',
    stopping: '„{{name}}“ wird angehalten; der Lauf endet nach dem Element, das er gerade bearbeitet.',
    stopped: '„{{name}}“ wurde angehalten. Geplante Läufe ruhen, bis der Auftrag wieder gestartet wird.',
    stopFailed: '„{{name}}“ konnte nicht angehalten werden.',
    retryFailed: '„{{name}}“ konnte nicht wiederholt werden.',
    retried: {
      failedItems_one: 'Das fehlgeschlagene Element von „{{name}}“ wird wiederholt.',
      failedItems_other: 'Die {{count}} fehlgeschlagenen Elemente von „{{name}}“ werden wiederholt.',
      failedSources_one: 'Das Konto, die Website oder das Postfach von „{{name}}“ mit Fehlern wird wiederholt.',
      failedSources_other:
        'Die {{count}} Konten, Websites oder Postfächer von „{{name}}“ mit Fehlern werden wiederholt.',
      wholeJob: '„{{name}}“ wird vollständig erneut ausgeführt.',
    },
    openRun: 'Neuen Lauf anzeigen',
    startedNotice: '„{{name}}“ wurde gestartet; der Lauf steht in der Warteschlange.',
    openInMonitor: 'Lauf im Monitor anzeigen',
    dismiss: 'Schließen',
    lastRun: 'Letzter Lauf',
    lastRunEnded: 'Letzter Lauf beendet',
    duration: 'Dauer',
    durationSeconds: 'Dauer (Sekunden)',
    neverRan: 'Noch nicht gelaufen',
  },
};
