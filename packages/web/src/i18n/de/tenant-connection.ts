import type { Leaves } from '../en';
import type { tenantConnectionNamespaces as En } from '../en/tenant-connection';

/** German texts of connecting a tenant: the same keys as the English ones. */
export const tenantConnectionNamespaces: Leaves<typeof En> = {
  tenantConnection: {
    connect: 'Per Administratorzustimmung verbinden',
    grantConsent: 'Administratorzustimmung erteilen',
    consentTitle: 'Mandant per Administratorzustimmung verbinden',
    consentIntro:
      'Eine Administratorin oder ein Administrator des Microsoft-365-Mandanten meldet sich bei Microsoft an und erteilt Ihrer App-Registrierung ihre Berechtigungen. Danach übernimmt das Portal die Mandanten-ID von Microsoft, prüft, dass Ihre App-Registrierung dort ein Token erhält, und testet die Verbindung. Sie geben nur ein, was Microsoft dem Portal nicht sagen kann: einen Namen sowie ID und geheimen Schlüssel Ihrer App-Registrierung.',
    renewTitle: 'Administratorzustimmung für „{{name}}“ erteilen',
    renewIntro:
      'Eine Administratorin oder ein Administrator des Mandanten meldet sich bei Microsoft an und erteilt der App-Registrierung von „{{name}}“ die Berechtigungen, die sie aufführt, etwa nachdem Sie Berechtigungen hinzugefügt haben. Danach wird die Verbindung erneut getestet.',
    manualInstead: 'Oder alle Felder selbst eingeben',
    continue: 'Weiter',
    consentHeld: 'Administratorzustimmung über das Portal erteilt am {{date}}, gestartet von {{by}}.',
    consentNever: 'Über das Portal wurde noch keine Administratorzustimmung erteilt.',
    fields: {
      tenantName: 'Ein Name Ihrer Wahl, der im Portal angezeigt wird, zum Beispiel „Contoso Produktion“.',
      applicationId:
        'Die ID, die Microsoft Ihrer App-Registrierung gegeben hat. Wo: Microsoft Entra Admin Center › App-Registrierungen › Ihre App › Übersicht › Anwendungs-ID (Client).',
      clientSecret:
        'Ein Kennwort Ihrer App-Registrierung: sein Wert, nicht seine Geheimnis-ID. Wo: App-Registrierungen › Ihre App › Zertifikate & Geheimnisse › Geheime Clientschlüssel › Neuer geheimer Clientschlüssel (Entra zeigt den Wert nur einmal). Wird verschlüsselt gespeichert und nie wieder angezeigt.',
      directory: 'Mandanten-ID oder Domäne (optional)',
      directoryHelp:
        'Führt die Administratorin oder den Administrator direkt zur Anmeldung dieses Mandanten, zum Beispiel contoso.onmicrosoft.com. Leer lassen, um im eigenen Mandanten der Person zuzustimmen, die sich anmeldet. Wo: Entra Admin Center › Übersicht › Mandanten-ID oder Primäre Domäne.',
      tenantId:
        'Die Verzeichnis-ID Ihrer Microsoft-365-Organisation. Wo: Entra Admin Center › Übersicht › Mandanten-ID (auch App-Registrierungen › Ihre App › Übersicht › Verzeichnis-ID (Mandant)).',
      objectId:
        'Die ID des App-Registrierungsobjekts selbst, nicht die Anwendungs-ID (Client). Wo: App-Registrierungen › Ihre App › Übersicht › Objekt-ID.',
      redirectUri:
        'Die Adresse des Portals, zu der Microsoft nach der Administratorzustimmung zurückleitet. Tragen Sie sie in der App-Registrierung ein: App-Registrierungen › Ihre App › Authentifizierung › Plattform hinzufügen › Web › Umleitungs-URIs.',
      redirectUriThis: 'Die dieses Portals: {{uri}}',
      organisationId:
        'Die Organisation im Portal, zu der der Mandant gehört, kein Wert von Microsoft: ausgefüllt mit der Organisation, für die Sie gerade arbeiten.',
      organisationIdNamed: 'Diese ID ist die von {{name}}.',
    },
    guide: {
      title: 'App-Registrierung vorbereiten',
      intro:
        'Einmal je Mandant, im Microsoft Entra Admin Center (entra.microsoft.com), als Administratorin oder Administrator:',
      register:
        'App-Registrierungen › Neue Registrierung: ein Name (zum Beispiel „Compliance Portal“), unterstützte Kontotypen „Nur Konten in diesem Organisationsverzeichnis“, Umleitungs-URI mit der Plattform „Web“ und der Adresse unten.',
      permissions:
        'API-Berechtigungen › Berechtigung hinzufügen › Microsoft Graph › Anwendungsberechtigungen: die unten aufgeführten Berechtigungen hinzufügen. Erteilt werden sie mit der Administratorzustimmung.',
      secret:
        'Zertifikate & Geheimnisse › Geheime Clientschlüssel › Neuer geheimer Clientschlüssel: den Wert kopieren.',
      partner:
        'Partner können eine App für „Konten in einem beliebigen Organisationsverzeichnis (mehrinstanzenfähig)“ registrieren und damit den Mandanten jedes Kunden verbinden: Die Administration jedes Kunden stimmt in ihrem eigenen Mandanten zu.',
      redirectUri: 'Umleitungs-URI (Web)',
    },
    permissions: {
      title: 'Berechtigungen, die die App-Registrierung braucht',
      intro:
        'Anwendungsberechtigungen für Microsoft Graph (keine delegierten), jede mit den Bereichen des Portals, die sie nutzen. Eine höher privilegierte Berechtigung, die eine davon einschließt, genügt ebenfalls.',
      table: 'Anwendungsberechtigungen für Microsoft Graph',
      permission: 'Berechtigung',
      areas: 'Benötigt für',
      search: 'Berechtigungen und Bereiche durchsuchen',
      empty: 'Keine Berechtigung passt.',
      failed: 'Die Berechtigungen konnten nicht geladen werden.',
      exportTitle: 'Berechtigungen der App-Registrierung',
    },
    link: {
      title: 'Weiter bei Microsoft',
      intro:
        'Die Seite für die Administratorzustimmung von Microsoft bittet eine Administratorin oder einen Administrator des Mandanten (Globaler Administrator oder Administrator für privilegierte Rollen), sich anzumelden und die Berechtigungen Ihrer App-Registrierung zu akzeptieren. Danach leitet Microsoft Sie zu diesem Portal zurück.',
      tenant: 'Mandant',
      tenantAny: 'der eigene Mandant der Person, die sich anmeldet',
      application: 'Anwendungs-ID (Client)',
      returnsTo: 'Zurück zu',
      expires: 'Der Link gilt bis {{time}}; so lange wartet das Portal auf die Antwort von Microsoft.',
      go: 'Weiter zu Microsoft',
    },
    callback: {
      title: 'Administratorzustimmung',
      working: 'Die Administratorzustimmung wird abgeschlossen …',
      granted: 'Administratorzustimmung für „{{name}}“ erteilt: Der Mandant ist verbunden.',
      declined: 'Die Administratorzustimmung wurde abgelehnt',
      declinedText:
        'Auf der Zustimmungsseite von Microsoft wurde abgebrochen. Nichts wurde verbunden oder geändert. Beginnen Sie neu, sobald die Berechtigungen erteilt werden dürfen.',
      failed: 'Die Administratorzustimmung wurde nicht abgeschlossen',
      code: 'Code von Microsoft: {{code}}',
      said: 'Meldung von Microsoft (auf Englisch): {{text}}',
      noAnswer:
        'Diese Seite empfängt die Antwort von Microsoft auf eine Administratorzustimmung, und ihre Adresse enthält keine. Beginnen Sie die Zustimmung auf der Seite der Mandanten.',
      test: 'Verbindungstest',
      back: 'Zurück zu den Mandanten',
      next: 'Als Nächstes: wählen, wohin seine Sicherungen und Archive gehen.',
      nextAction: 'Speicherort hinzufügen',
    },
    errors: {
      aadsts65004: 'Die Zustimmung wurde abgelehnt.',
      aadsts90094:
        'Das angemeldete Konto darf nicht für die Organisation zustimmen. Melden Sie sich als Globaler Administrator oder Administrator für privilegierte Rollen an, oder bitten Sie eine solche Person darum.',
      aadsts700016:
        'Microsoft kennt diese Anwendungs-ID (Client) im Mandanten nicht. Prüfen Sie die ID, oder melden Sie sich mit einem Administratorkonto des Mandanten an, in dem die App registriert ist.',
      aadsts7000215:
        'Microsoft hat den geheimen Clientschlüssel abgelehnt. Geben Sie den Wert des Schlüssels ein (nicht seine Geheimnis-ID), oder erstellen Sie einen neuen.',
      aadsts7000222: 'Der geheime Clientschlüssel ist abgelaufen. Erstellen Sie in der App-Registrierung einen neuen.',
      aadsts7000229:
        'Die App-Registrierung hat in diesem Mandanten keine Unternehmensanwendung (keinen Dienstprinzipal) und erhält dort daher kein Token. Eine Administratorin oder ein Administrator dieses Mandanten muss ihr zustimmen.',
      aadsts50011:
        'Die Adresse des Portals ist keine Umleitungs-URI der App-Registrierung. Tragen Sie sie unter Authentifizierung › Web › Umleitungs-URIs ein.',
      aadsts90002: 'Microsoft kennt diesen Mandanten nicht. Prüfen Sie Mandanten-ID oder Domäne.',
      aadsts70011: 'Microsoft hat die angefragten Berechtigungen (den Scope) abgelehnt.',
      aadsts900144: 'Microsoft vermisst einen Parameter in der Anfrage.',
      aadsts50034: 'Das angemeldete Konto gibt es in diesem Mandanten nicht.',
      otherTenant:
        'Die Zustimmung wurde in einem anderen Mandanten erteilt als dem, nach dem gefragt wurde. Nichts wurde geändert.',
      invalidAnswer: 'Die Antwort von Microsoft nannte keinen Mandanten. Nichts wurde verbunden.',
      generic: 'Microsoft hat mit „{{error}}“ geantwortet.',
    },
  },
};
