/** The user-facing error messages in German, by the keys of the English ones (messages-en.ts). */
import type { englishErrorMessages } from './messages-en.js';

/** Every user-facing error message in German, by the keys of {@link englishErrorMessages}. */
export const germanErrorMessages: Readonly<Record<keyof typeof englishErrorMessages, string>> = {
  badRequest: 'Ungültige Anfrage',
  unauthorized: 'Nicht autorisiert',
  forbidden: 'Zugriff verweigert',
  notFound: 'Ressource nicht gefunden',
  internalServerError: 'Interner Serverfehler',
  generic: 'Ein Fehler ist aufgetreten, bitte versuchen Sie es später erneut',
  failedToRetrieveData: 'Daten konnten nicht abgerufen werden',
  invalidCredentials: 'Ungültige Anmeldedaten',
  accountLocked: 'Das Konto ist nach zu vielen Fehlversuchen für 5 Minuten gesperrt.',
  loginVerificationFailed: 'Anmeldeüberprüfung fehlgeschlagen',
  requestFailed404: 'Die angeforderte Ressource wurde nicht gefunden (404)',
  requestFailed400: 'Der Server konnte die Anfrage nicht verarbeiten (400)',
  requestTimeout: 'Die Anfrage hat zu lange gedauert und wurde abgebrochen',
  invalidVerificationCode: 'Ungültiger Bestätigungscode',
  userDoesNotExist: 'Benutzer existiert nicht',
  networkError: 'Netzwerkfehler: Der Server kann die Anfrage vorübergehend nicht bearbeiten',
  unknown: 'Unbekannter Fehler',
  trialBackupJobs:
    'Ihre Testlizenz erlaubt einen Sicherungsauftrag pro Anwendung, und diese Anwendung hat bereits einen.',
  trialSources: 'Ihre Testlizenz erlaubt höchstens 10 Konten, Websites oder Teams pro Sicherung.',
  trialRestores:
    'Ihre Testlizenz erlaubt höchstens 10 Wiederherstellungen pro Anwendung, und diese Anwendung hat sie erreicht.',
  trialNoDelete: 'Mit einer Testlizenz können Sicherungsaufträge nicht gelöscht werden.',
  storeUnreachable: 'Der Speicherdienst ist unter der Websiteadresse nicht erreichbar.',
  storeCredentialsRefused: 'Der Speicherdienst hat den Zugriffsschlüssel oder das Geheimnis abgelehnt.',
  storeNotFound: 'Der Container oder Bucket der Websiteadresse existiert nicht.',
  storeProbeFailed: 'Ein Testobjekt konnte am Speicherort nicht geschrieben, gelesen und gelöscht werden.',
  locationHoldsData:
    'Die Websiteadresse eines Speicherorts mit gesicherten oder archivierten Daten kann nicht auf einen anderen Speicher zeigen.',
  jobLocationHoldsData: 'Der Speicherort eines Auftrags mit gespeicherten Sicherungen kann nicht geändert werden.',
};
