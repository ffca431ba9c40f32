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
    caseNotSaved: 'Der Fall wurde nicht gespeichert.',
    nameTaken: 'Dieser Mandant hat bereits einen Fall mit diesem Namen.',
    details: { open: 'Details', label: 'Details des Falls „{{name}}“', title: 'Fall „{{name}}“' },
    custodians: {
      title: 'Verwahrer',
      none: 'Keine Verwahrer',
      noneChosen:
        'Kein Verwahrer gewählt: Der Fall durchsucht alles, was Sie lesen dürfen, und kann nicht unter Legal Hold gestellt werden.',
      chosen_one: '{{count}} Verwahrer gewählt',
      chosen_other: '{{count}} Verwahrer gewählt',
      pickExplain:
        'Die Postfächer, Teams und Konten, deren Chats der Fall umfasst. Sobald Sie einen wählen, durchsucht der Fall nur seine Verwahrer, und ein Legal Hold bewahrt alles von ihnen, was die Suche findet, ob Sie es lesen dürfen oder nicht.',
      tabs: { mailboxes: 'Postfächer ({{n}})', teams: 'Teams ({{n}})', chats: 'Chats ({{n}})' },
      chatsHelp: 'Die Teams-Chats, in denen diese Konten Mitglied sind, auch solche, denen sie später beitreten.',
      chatUnit: 'Konten',
      kinds: { mailbox: 'Postfach', team: 'Team-Kanäle', chats: 'Chats' },
      name: 'Verwahrer',
      kind: 'Umfasst',
      items: 'Bewahrte Elemente',
      explain: 'Die Verwahrer, die der Fall nennt. Ein Legal Hold bewahrt alles von ihnen, was die Suche findet.',
      heldExplain:
        'Beim Setzen des Legal Holds festgehalten. Nur Anzahlen: Die Elemente selbst lesen Sie dort, wo ein Stellvertreterrecht es Ihnen erlaubt.',
      notTenants: 'Ein gewählter Verwahrer ist kein Postfach, Team oder Konto dieses Mandanten.',
    },
    cases: 'Fälle',
    hitsWhenSaved: 'Treffer beim Speichern',
    saved: 'Gespeichert',
    open: 'Öffnen',
    export: 'Exportieren',
    removeTitle: 'Fall „{{name}}“ entfernen?',
    removeText: 'Die gespeicherte Suche wird entfernt; das Archiv behält alle Elemente.',
    hold: {
      column: 'Legal Hold',
      place: 'Legal Hold setzen',
      placeLabel: 'Den Fall „{{name}}“ unter Legal Hold stellen',
      release: 'Aufheben',
      releaseLabel: 'Den Legal Hold des Falls „{{name}}“ aufheben',
      since_one: 'Unter Legal Hold seit {{date}}, {{count}} Element',
      since_other: 'Unter Legal Hold seit {{date}}, {{count}} Elemente',
      by: 'Gesetzt von {{email}}',
      none: 'Kein Legal Hold',
      held_one: 'Der Fall „{{name}}“ steht unter Legal Hold: {{count}} Element wird vor dem Löschen bewahrt.',
      held_other: 'Der Fall „{{name}}“ steht unter Legal Hold: {{count}} Elemente werden vor dem Löschen bewahrt.',
      released: 'Der Legal Hold des Falls „{{name}}“ wurde aufgehoben.',
      releaseTitle: 'Den Legal Hold von „{{name}}“ aufheben?',
      releaseText_one:
        'Löschaufträge dürfen das {{count}} Element, das der Legal Hold bewahrt, danach entfernen, sobald seine Aufbewahrungsfrist abgelaufen ist. Heben Sie den Legal Hold erst auf, wenn die Angelegenheit abgeschlossen ist.',
      releaseText_other:
        'Löschaufträge dürfen die {{count}} Elemente, die der Legal Hold bewahrt, danach entfernen, sobald ihre Aufbewahrungsfrist abgelaufen ist. Heben Sie den Legal Hold erst auf, wenn die Angelegenheit abgeschlossen ist.',
      removeBlocked: 'Ein Fall unter Legal Hold kann nicht entfernt werden; heben Sie den Legal Hold zuerst auf.',
      needsManager:
        'Legal Holds setzen und aufheben dürfen nur eDiscovery-Manager. Eine Administratorin oder ein Administrator vergibt die Rolle unter Konfiguration › Benutzer.',
      rightsFailed:
        'Ob Sie Legal Holds setzen dürfen, konnte nicht gelesen werden; „Legal Hold setzen“ und „Aufheben“ bleiben deaktiviert.',
      needsCustodians:
        'Ein Fall ohne Verwahrer kann nicht unter Legal Hold gestellt werden: Speichern Sie die Suche erneut als Fall mit den Postfächern, Teams oder Chat-Konten, die bewahrt werden sollen.',
      explain:
        'Ein Fall unter Legal Hold bewahrt jedes Element seiner Verwahrer, das seine Suche findet, ob Sie es lesen dürfen oder nicht, und später archivierte passende Elemente vor Löschaufträgen, bis er aufgehoben wird.',
    },
  },
};
