import type { Leaves } from '../en';
import type { confirmationsNamespaces as En } from '../en/confirmations';

/**
 * German texts of the confirmations of destructive actions and of the data-management clean-up jobs:
 * the same keys as the English ones.
 */
export const confirmationsNamespaces: Leaves<typeof En> = {
  confirmations: {
    deletion: {
      createTitle: 'Löschauftrag „{{name}}“ anlegen?',
      editTitle: 'Löschauftrag „{{name}}“ speichern?',
      create: 'Löschauftrag anlegen',
      save: 'Löschauftrag speichern',
      what_one:
        'Löscht {{items}} E-Mail ({{size}}) aus {{mailboxes}}, archiviert vor dem {{before}}; das lässt sich nicht rückgängig machen.',
      what_other:
        'Löscht {{items}} E-Mails ({{size}}) aus {{mailboxes}}, archiviert vor dem {{before}}; das lässt sich nicht rückgängig machen.',
      nothing:
        'Jetzt ausgeführt, würde er keine E-Mail löschen: In diesen Postfächern ist nichts archiviert, das älter als der {{before}} ist.',
      mailboxes_one: '{{n}} Postfach',
      mailboxes_other: '{{n}} Postfächern',
      kept_one: '{{items}} ebenso alte E-Mail bleibt: Ein eDiscovery-Fall unter Legal Hold bewahrt sie.',
      kept_other: '{{items}} ebenso alte E-Mails bleiben: eDiscovery-Fälle unter Legal Hold bewahren sie.',
      atOnce: 'Er läuft, sobald er gespeichert ist.',
      scheduled:
        'Er läuft nach seinem Zeitplan ({{schedule}}); jeder Lauf löscht, was dann älter als die Aufbewahrung ist.',
      loading: 'Es wird ermittelt, was die Löschung entfernt …',
      startPreviewFailed: 'Was dieser Lauf löschen würde, ließ sich nicht ermitteln.',
      previewFailed: 'Was die Löschung entfernen würde, ließ sich nicht ermitteln; der Auftrag wird nicht gespeichert.',
      created: 'Der Löschauftrag „{{name}}“ wurde angelegt.',
      updated: 'Der Löschauftrag „{{name}}“ wurde gespeichert.',
    },
    hold: {
      placeFailed: 'Der Legal Hold konnte nicht gesetzt werden.',
      releaseFailed: 'Der Legal Hold konnte nicht aufgehoben werden.',
      placeTitle: 'Den Fall „{{name}}“ unter Legal Hold stellen?',
      place: 'Legal Hold setzen',
      placeText_one:
        'Bewahrt jedes Element von {{custodians}}, das die Suche „{{query}}“ findet ({{hits}} Treffer beim Speichern des Falls), und später archivierte passende Elemente vor jedem Löschauftrag, bis der Legal Hold aufgehoben wird.',
      placeText_other:
        'Bewahrt jedes Element von {{custodians}}, das die Suche „{{query}}“ findet ({{hits}} Treffer beim Speichern des Falls), und später archivierte passende Elemente vor jedem Löschauftrag, bis der Legal Hold aufgehoben wird.',
      releaseText_one:
        'Löschaufträge dürfen dann das {{items}} bewahrte Element löschen, sobald seine Aufbewahrung abgelaufen ist; gelöschte Elemente lassen sich nicht wiederherstellen.',
      releaseText_other:
        'Löschaufträge dürfen dann die {{items}} bewahrten Elemente löschen, sobald ihre Aufbewahrung abgelaufen ist; gelöschte Elemente lassen sich nicht wiederherstellen.',
      custodianItems_one: '{{name}} ({{kind}}): {{items}} Element',
      custodianItems_other: '{{name}} ({{kind}}): {{items}} Elemente',
      custodiansLabel: 'Verwahrer, die der Legal Hold bewahrt',
      more: 'und {{n}} weitere',
      kinds: { mailbox: 'Postfach', team: 'Team-Kanäle', chats: 'Chats' },
    },
    tenant: {
      text: 'Löscht „{{name}}“ aus dem Portal mit {{jobs}}, {{locations}} und {{cases}}. Seine Sicherungen und Archive lassen sich im Portal nicht mehr wiederherstellen; seine Daten in Microsoft 365 bleiben. Das lässt sich nicht rückgängig machen.',
      jobs_one: '{{n}} Auftrag und seinen Läufen',
      jobs_other: '{{n}} Aufträgen und ihren Läufen',
      locations_one: '{{n}} Speicherort',
      locations_other: '{{n}} Speicherorten',
      cases_one: '{{n}} eDiscovery-Fall',
      cases_other: '{{n}} eDiscovery-Fällen',
      held_one: '{{n}} seiner Fälle steht unter Legal Hold: Der Legal Hold endet mit dem Mandanten.',
      held_other: '{{n}} seiner Fälle stehen unter Legal Hold: Die Legal Holds enden mit dem Mandanten.',
      active: 'Er ist der aktive Mandant: Ein anderer Ihrer Mandanten wird aktiv.',
      loading: 'Es wird gezählt, was der Mandant enthält …',
      previewFailed:
        'Was der Mandant enthält, ließ sich nicht zählen: Seine Aufträge, Speicherorte und Fälle werden mit ihm gelöscht.',
    },
    removeJob: {
      archive: 'Der Auftrag und sein Zeitplan werden entfernt; was er archiviert hat, bleibt im Archiv.',
      archiveDeletion:
        'Der Auftrag und sein Zeitplan werden entfernt; er löscht nichts mehr. Was er gelöscht hat, bleibt gelöscht.',
      versionCleanup:
        'Der Auftrag und sein Zeitplan werden entfernt; er entfernt keine Versionen mehr. Entfernte Versionen bleiben entfernt.',
    },
    location: {
      text: 'Löscht den Speicherort „{{name}}“ ({{where}}). Kein Auftrag schreibt in ihn; ein Speicherort, der noch archivierte Elemente enthält, wird abgelehnt. Das lässt sich nicht rückgängig machen.',
      inUse_one:
        '{{n}} Auftrag schreibt in „{{name}}“: Ändern Sie sein Ziel oder entfernen Sie ihn, bevor Sie den Speicherort löschen.',
      inUse_other:
        '{{n}} Aufträge schreiben in „{{name}}“: Ändern Sie ihr Ziel oder entfernen Sie sie, bevor Sie den Speicherort löschen.',
    },
  },
  cleanupJobs: {
    description:
      'Bereinigungsaufträge entfernen planmäßig alte Dateiversionen von SharePoint-Websites und OneDrives; die aktuelle Version einer Datei wird nie entfernt.',
    empty: 'Es gibt noch keine Bereinigungsaufträge.',
    create: 'Bereinigungsauftrag anlegen',
    createTitle: 'Bereinigungsauftrag anlegen',
    editTitle: 'Bereinigungsauftrag bearbeiten',
    application: 'Websites oder OneDrives',
    rule: 'Regel',
    keepNewest_one: 'Die neueste Version behalten',
    keepNewest_other: 'Die neuesten {{count}} Versionen behalten',
    olderThan: 'Versionen älter als {{date}} entfernen',
    paths_one: 'Nur {{count}} gewählte Datei oder gewählter Ordner der Website (im Dateimanager gewählt).',
    paths_other: 'Nur {{count}} gewählte Dateien und Ordner der Website (im Dateimanager gewählt).',
    created: 'Der Bereinigungsauftrag „{{name}}“ wurde angelegt.',
    updated: 'Der Bereinigungsauftrag „{{name}}“ wurde gespeichert.',
    ruleInvalid: 'Die Regel: {{problem}}',
    runs: 'Ihre Läufe zeigt die Überwachung Datenmanagement.',
  },
};
