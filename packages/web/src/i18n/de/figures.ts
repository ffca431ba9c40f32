import type { Leaves } from '../en';
import type { figuresNamespaces as En } from '../en/figures';

/** German texts of the figures every area shows, each defined once: the same keys as the English ones. */
export const figuresNamespaces: Leaves<typeof En> = {
  figures: {
    itemsProtected: {
      label: 'Geschützte Elemente',
      short: 'Geschützte Elemente',
      definition:
        'Die Dateien, Nachrichten, Listenelemente und Seiten, die der Speicher jetzt für ein Konto, eine Website oder ein Team enthält (ohne die an der Quelle gelöschten), und die E-Mails, Termine, Kontakte und Aufgaben, die für ein Postfach archiviert sind, jedes einmal gezählt, gleich wie viele Aufträge es abdecken. Die Zahl ist die Summe ihrer Arten, die daneben stehen.',
    },
    itemsChanged: {
      label: 'Im Lauf geänderte Elemente',
      short: 'Geänderte Elemente',
      definition:
        'Was ein Lauf geändert hat: die neuen, geänderten oder gelöschten Dateien, Nachrichten, Listenelemente und Seiten, die eine Sicherung erfasst hat, die E-Mails, Termine, Kontakte, Aufgaben oder Nachrichten, die ein Archivierungslauf archiviert hat, die Elemente, die eine Löschung entfernt oder eine Wiederherstellung zurückgeschrieben hat. Bereits gespeicherte Elemente werden nicht erneut gezählt.',
    },
    storedBytes: {
      label: 'Gespeicherte Größe (nach Deduplizierung)',
      short: 'Gespeicherte Größe',
      definition:
        'Die Bytes, die der Speicher für ein Konto, eine Website, ein Team oder ein Postfach aufbewahrt, alle Versionen eingeschlossen, jeder Inhalt einmal gezählt, gleich wie viele Aufträge ihn sichern. Die gespeicherte Größe eines Bereichs und der Übersicht ist die Summe seiner Konten.',
    },
    bytesRead: {
      label: 'Im Lauf gelesene Daten',
      short: 'Gelesene Daten',
      definition:
        'Die Bytes der Elemente, die ein Lauf geändert hat: von Microsoft 365 gelesen bei einer Sicherung oder Archivierung, zurückgeschrieben bei einer Wiederherstellung, entfernt bei einer Löschung.',
    },
    perDay: {
      storedSize: 'Gespeicherte Größe am Ende jedes Tages (nach Deduplizierung)',
      itemsProtected: 'Geschützte Elemente am Ende jedes Tages',
      archived: 'Pro Tag archiviert',
      deleted: 'Pro Tag durch Aufbewahrung gelöscht',
      note: 'Jeder Tag zeigt, was an ihm geschah: später gelöschte E-Mails oder Nachrichten zählen weiter an dem Tag, an dem sie archiviert wurden, und eine Löschung erscheint an ihrem eigenen Tag.',
      deletions_one: 'Die Aufbewahrung hat im Zeitraum {{count}} Element gelöscht: {{days}}.',
      deletions_other: 'Die Aufbewahrung hat im Zeitraum {{count}} Elemente gelöscht: {{days}}.',
      deletionDay: '{{date}}: {{deleted}}',
      noDeletions: 'Die Aufbewahrung hat im Zeitraum nichts gelöscht.',
    },
    kinds: {
      mails_one: '{{n}} E-Mail',
      mails_other: '{{n}} E-Mails',
      events_one: '{{n}} Termin',
      events_other: '{{n}} Termine',
      contacts_one: '{{n}} Kontakt',
      contacts_other: '{{n}} Kontakte',
      tasks_one: '{{n}} Aufgabe',
      tasks_other: '{{n}} Aufgaben',
      files_one: '{{n}} Datei',
      files_other: '{{n}} Dateien',
      messages_one: '{{n}} Nachricht',
      messages_other: '{{n}} Nachrichten',
      listItems_one: '{{n}} Listenelement',
      listItems_other: '{{n}} Listenelemente',
      pages_one: '{{n}} Seite',
      pages_other: '{{n}} Seiten',
      total: '{{total}} ({{parts}})',
    },
    definitionsTitle: 'Was die Zahlen bedeuten',
    coverage: {
      all_one: 'Die {{count}} Website, die die Speicheranalyse gelesen hat, ist in einem Versionsbereinigungsauftrag.',
      all_other:
        'Alle {{count}} Websites und Team-Websites, die die Speicheranalyse gelesen hat, sind in einem Versionsbereinigungsauftrag.',
      some: '{{covered}} von {{total}} Websites und Team-Websites sind in einem Versionsbereinigungsauftrag; {{uncovered}} sind in keinem (die größten sind aufgeführt).',
      none_one:
        'Die {{count}} Website, die die Speicheranalyse gelesen hat, ist in keinem Versionsbereinigungsauftrag.',
      none_other:
        'Keine der {{count}} Websites und Team-Websites ist in einem Versionsbereinigungsauftrag (die größten sind aufgeführt).',
      oldVersions:
        '{{total}} Websites und Team-Websites haben alte Versionen: {{covered}} sind in einem Bereinigungsauftrag (seine Regel behält diese Versionen, oder er lief seit der Analyse nicht), {{uncovered}} sind in keinem.',
      column: 'Bereinigungsauftrag',
      inJob: 'Enthalten',
      notInJob: 'Keiner',
    },
  },
};
