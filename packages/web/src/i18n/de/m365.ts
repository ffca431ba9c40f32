import type { Leaves } from '../en';
import type { m365Namespaces as En } from '../en/m365';

/** German texts of a Microsoft 365 failure: the same keys as the English ones. */
export const m365Namespaces: Leaves<typeof En> = {
  m365: {
    connectionFailed: 'Die Verbindung zu {{name}} ist fehlgeschlagen.',
    lists: {
      onedrive: 'Die OneDrive-Konten konnten nicht geladen werden.',
      sharepoint: 'Die SharePoint-Websites konnten nicht geladen werden.',
      teams: 'Die Teams konnten nicht geladen werden.',
      exchange: 'Die Postfächer konnten nicht geladen werden.',
      accounts: 'Die Konten konnten nicht geladen werden.',
    },
    versions: 'Die Versionen von {{name}} konnten nicht geladen werden.',
    preview: 'Was die Bereinigung entfernen würde, konnte nicht ermittelt werden.',
    dashboard: 'Die Speicheranalyse konnte die SharePoint-Websites des Mandanten nicht lesen.',
    teamsDashboard: 'Die Zahlen des Teams-Archivs konnten nicht geladen werden.',
    proxyAccounts:
      'Die Postfächer und Gruppen, die Stellvertreterrechte erhalten können, konnten nicht geladen werden.',
    missing: 'Es fehlt: {{permission}}, benötigt für {{areas}}.',
    wait_one: 'Microsoft bittet, vor dem nächsten Versuch {{count}} Sekunde zu warten.',
    wait_other: 'Microsoft bittet, vor dem nächsten Versuch {{count}} Sekunden zu warten.',
    waitMinutes_one: 'Microsoft bittet, vor dem nächsten Versuch {{count}} Minute zu warten.',
    waitMinutes_other: 'Microsoft bittet, vor dem nächsten Versuch {{count}} Minuten zu warten.',
    address: 'Adresse: {{host}}',
    details: 'Technische Details',
    copy: 'Details kopieren',
    copied: 'Details kopiert. Fügen Sie sie in Ihre Anfrage an den Support ein.',
    copyFailed:
      'Die Details konnten nicht kopiert werden: Markieren Sie sie unter „Technische Details“ und kopieren Sie sie.',
    copyTitle: 'Fehler von Microsoft 365',
    fields: {
      cause: 'Ursache',
      status: 'HTTP-Status',
      aadsts: 'AADSTS-Code',
      error: 'Fehlercode',
      requestId: 'Anforderungs-ID',
      clientRequestId: 'Client-Anforderungs-ID',
      correlationId: 'Korrelations-ID',
      traceId: 'Ablaufverfolgungs-ID',
      timestamp: 'Zeit bei Microsoft',
      retryAfter: 'Retry-After (Sekunden)',
      host: 'Adresse',
      permissions: 'Fehlende Berechtigungen',
      message: 'Meldung von Microsoft',
      portalRequestId: 'Anforderungs-ID des Portals',
      portalStatus: 'HTTP-Status des Portals',
    },
    filters: {
      loadingMailboxes: 'Postfächer werden geladen…',
      loadingTeams: 'Teams werden geladen…',
      noMailboxes: 'In Microsoft 365 wurde kein Postfach gefunden.',
      noTeams: 'In Microsoft 365 wurde kein Team gefunden.',
      noLocation: 'Postfächer und Teams werden angezeigt, sobald der Mandant einen Speicherort hat.',
    },
  },
};
