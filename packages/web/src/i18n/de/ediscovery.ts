import type { Leaves } from '../en';
import type { ediscoveryNamespaces as En } from '../en/ediscovery';

/** German texts of eDiscovery: the same keys as the English ones. */
export const ediscoveryNamespaces: Leaves<typeof En> = {
  ediscovery: {
    description: 'Archivierte E-Mails und Teams-Nachrichten durchsuchen, Suchen als Fälle speichern und exportieren.',
    query: 'Suche',
    placeholder: 'Wörter, "eine Wortgruppe", from:Name, subject:Wort …',
    syntax:
      'Alle Wörter müssen vorkommen; "Anführungszeichen" finden eine Wortgruppe; OR findet eines von beiden; NOT oder - schließt aus; from:, to: und subject: suchen in diesen Feldern; has:attachment findet E-Mails mit Anhang.',
    search: 'Suchen',
    kinds: { mail: 'E-Mails', teams: 'Teams-Nachrichten' },
    chat: 'Teams-Chat',
    dateFrom: 'Von',
    dateTo: 'Bis',
    results: 'Suchergebnisse',
    noHits: 'Nichts passt zu dieser Suche.',
    intro: 'Geben Sie Suchwörter ein, oder suchen Sie ohne Wörter, um alles aufzulisten, was Sie lesen dürfen.',
    noMailboxes:
      'Sie dürfen noch kein Postfach lesen: E-Mails werden nur in Ihrem eigenen Postfach und in denen gesucht, für die Sie ein Stellvertreterrecht haben (E-Mail-Archiv › Stellvertreterrechte).',
    searchedMailboxes_one: 'E-Mails in {{count}} Postfach durchsucht',
    searchedMailboxes_other: 'E-Mails in {{count}} Postfächern durchsucht',
    item: 'Betreff und Treffer',
    kind: 'Art',
    from: 'Von',
    to: 'An',
    sent: 'Gesendet',
    where: 'Postfach oder Team',
    noSubject: '(kein Betreff)',
    previewFailed: 'Das Element konnte nicht angezeigt werden.',
    downloadEml: 'Als .eml herunterladen',
    needsProxyRight: 'Sie brauchen ein Stellvertreterrecht, um das Archiv dieses Postfachs zu lesen.',
    mailbox: 'Postfach',
    allMailboxes: 'Alle Postfächer, die ich lesen darf',
    team: 'Team',
    allTeams: 'Alle Teams',
    restore: 'E-Mails wiederherstellen',
    restoreTitle_one: '{{count}} E-Mail wiederherstellen?',
    restoreTitle_other: '{{count}} E-Mails wiederherstellen?',
    restoreInto: 'In das Postfach',
    originalMailbox: 'Woher jede E-Mail stammt',
    restoreFolder: 'Ordner',
    restoreStarted_one:
      'Die Wiederherstellung von {{count}} E-Mail hat begonnen; der Auftragsmonitor zeigt den Fortschritt.',
    restoreStarted_other:
      'Die Wiederherstellung von {{count}} E-Mails hat begonnen; der Auftragsmonitor zeigt den Fortschritt.',
    saveCase: 'Als Fall speichern',
    caseName: 'Name des Falls',
    caseSaved: 'Der Fall „{{name}}“ wurde gespeichert.',
    cases: 'Fälle',
    hitsWhenSaved: 'Treffer beim Speichern',
    saved: 'Gespeichert',
    open: 'Öffnen',
    export: 'Exportieren',
    removeTitle: 'Fall „{{name}}“ entfernen?',
    removeText: 'Die gespeicherte Suche wird entfernt; das Archiv behält alle Elemente.',
  },
};
