import type { Leaves } from '../en';
import type { runsNamespaces as En } from '../en/runs';

/** German texts of a job's runs as every monitor shows them: the same keys as the English ones. */
export const runsNamespaces: Leaves<typeof En> = {
  runs: {
    state: {
      queued: 'In der Warteschlange',
      running: 'Läuft',
      finished: 'Abgeschlossen',
      finishedWithWarnings: 'Mit Warnungen abgeschlossen',
      failed: 'Fehlgeschlagen',
      stopped: 'Angehalten',
    },
    queuedAt: 'Eingereiht um {{time}}',
    figures: {
      queued: 'Eingereiht',
      started: 'Gestartet',
      finished: 'Beendet',
      duration: 'Dauer',
      items: 'Verarbeitete Elemente',
      itemsOfFound: '{{done}} von {{found}} gefundenen',
      size: 'Verarbeitete Daten',
      throughput: 'Durchsatz',
      throughputValue: '{{items}} Elemente/s · {{bytes}}/s',
      failedAccounts: 'Fehlgeschlagene Konten',
      failedAccountsValue: '{{failed}} von {{total}}',
      failedItems: 'Fehler',
      notYet: 'Noch nicht',
    },
    failures: {
      runFailed: 'Lauf fehlgeschlagen',
      accounts_one: '{{count}} Konto',
      accounts_other: '{{count}} Konten',
      reason: 'Warum der Lauf fehlschlug',
      code: 'Code von Microsoft 365',
      codeWithStatus: '{{code}} (HTTP {{status}})',
      httpStatus: 'HTTP {{status}}',
      said: 'Microsoft 365 meldete: „{{said}}“',
    },
    duration: {
      seconds: '{{s}} s',
      minutes: '{{m}} Min. {{s}} s',
      hours: '{{h}} Std. {{m}} Min.',
      days: '{{d}} T. {{h}} Std.',
    },
    throttle: {
      limiting_one: 'Microsoft 365 drosselt die Anfragen; nächster Versuch um {{time}} ({{count}} Wiederholung)',
      limiting_other: 'Microsoft 365 drosselt die Anfragen; nächster Versuch um {{time}} ({{count}} Wiederholungen)',
      unavailable_one:
        'Microsoft 365 ist vorübergehend nicht verfügbar; nächster Versuch um {{time}} ({{count}} Wiederholung)',
      unavailable_other:
        'Microsoft 365 ist vorübergehend nicht verfügbar; nächster Versuch um {{time}} ({{count}} Wiederholungen)',
      unreachable_one: 'Microsoft 365 ist nicht erreichbar; nächster Versuch um {{time}} ({{count}} Wiederholung)',
      unreachable_other: 'Microsoft 365 ist nicht erreichbar; nächster Versuch um {{time}} ({{count}} Wiederholungen)',
      past_one: 'Microsoft 365 ließ diesen Lauf einmal warten und es erneut versuchen (insgesamt {{waited}}).',
      past_other: 'Microsoft 365 ließ diesen Lauf {{count}}-mal warten und es erneut versuchen (insgesamt {{waited}}).',
      retried_one: 'Microsoft 365 ließ diesen Lauf eine Anfrage einmal wiederholen.',
      retried_other: 'Microsoft 365 ließ diesen Lauf Anfragen {{count}}-mal wiederholen.',
    },
    accounts: {
      show: 'Konten anzeigen',
      all: 'Alle Konten',
      failed: 'Nur fehlgeschlagene Konten',
      wholeAccount: 'Konto fehlgeschlagen',
      code: 'Code',
      none: 'Keine',
      noneYet: 'Noch kein Konto gelesen; der Lauf listet jedes, sobald er es beginnt.',
      noneFailed: 'In diesem Lauf ist kein Konto fehlgeschlagen.',
      more_one: 'und {{count}} weiterer, im Export des Berichts aufgeführt',
      more_other: 'und {{count}} weitere, im Export des Berichts aufgeführt',
    },
  },
};
