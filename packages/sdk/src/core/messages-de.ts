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
  entraNotAvailable:
    'Die Anmeldung mit Microsoft ist für dieses Konto nicht aktiviert. Melden Sie sich mit Ihrem Passwort an.',
  entraUnavailable: 'Microsoft Entra ID ist nicht erreichbar. Bitte versuchen Sie es in einigen Minuten erneut.',
  entraOtherTenant:
    'Dieses Microsoft-Konto gehört zu einem anderen Verzeichnis als dem Ihrer Organisation. Melden Sie sich mit dem Microsoft-Konto Ihrer Organisation an.',
  entraWrongAudience:
    'Microsoft hat diese Anmeldung für eine andere Anwendung ausgestellt. Bitte versuchen Sie es erneut; wenn der Fehler bleibt, bitten Sie Ihre Administration, die App-Registrierung des Portals zu prüfen.',
  entraExpired: 'Die Microsoft-Anmeldung ist abgelaufen. Bitte melden Sie sich erneut an.',
  entraReplayed:
    'Diese Microsoft-Anmeldung wurde bereits verwendet oder gehört zu einer anderen Anmeldung. Bitte melden Sie sich erneut an.',
  entraBadSignature:
    'Die Microsoft-Anmeldung konnte nicht überprüft werden: Ihre Signatur ist ungültig. Bitte melden Sie sich erneut an.',
  entraNoVerifiedEmail:
    'Ihr Microsoft-Konto hat keine bestätigte E-Mail-Adresse und kann daher keinem Portalkonto zugeordnet werden.',
  entraNoAccount: 'Kein Portalkonto Ihrer Organisation passt zu diesem Microsoft-Konto.',
  passwordSignInOff: 'Ihre Organisation meldet sich nur mit Microsoft an. Verwenden Sie „Mit Microsoft anmelden“.',
  entraTenantRequired:
    'Geben Sie die Entra-Mandanten-ID Ihrer Organisation ein, um die Anmeldung mit Microsoft zu aktivieren.',
  passwordOffNeedsMicrosoft:
    'Die Passwortanmeldung kann nur abgeschaltet werden, während die Anmeldung mit Microsoft aktiv ist und nachdem Sie sich selbst mit Microsoft angemeldet haben.',
  entraTenantTaken:
    'Dieser Entra-Mandant ist bereits für eine andere Organisation bestätigt. Wenn er zu Ihrer Organisation gehört, bitten Sie den Betreiber des Portals, ihn neu zuzuordnen.',
  passwordOffNeedsBoundTenant:
    'Die Anmeldung mit Passwort kann erst abgeschaltet werden, wenn der Entra-Mandant Ihrer Organisation bestätigt ist: Zuerst muss sich ein Mitglied aus diesem Mandanten mit Microsoft anmelden.',
  reauthenticationRequired:
    'Bestätigen Sie, dass Sie es sind: Geben Sie Ihr Passwort und einen Code aus Ihrer Authenticator-App (oder einen Wiederherstellungscode) ein, oder melden Sie sich erneut mit Microsoft an.',
  reauthenticationPasswordWrong: 'Das Passwort ist falsch. Es wurde nichts geändert.',
  reauthenticationCodeWrong:
    'Der Code ist falsch oder wurde bereits verwendet. Es wurde nichts geändert; warten Sie auf den nächsten Code und versuchen Sie es erneut.',
  storeUnreachable: 'Der Speicherdienst ist unter der Websiteadresse nicht erreichbar.',
  storeCredentialsRefused: 'Der Speicherdienst hat den Zugriffsschlüssel oder das Geheimnis abgelehnt.',
  storeNotFound: 'Der Container oder Bucket der Websiteadresse existiert nicht.',
  storeProbeFailed: 'Ein Testobjekt konnte am Speicherort nicht geschrieben, gelesen und gelöscht werden.',
  locationHoldsData:
    'Die Websiteadresse eines Speicherorts mit gesicherten oder archivierten Daten kann nicht auf einen anderen Speicher zeigen.',
  jobLocationHoldsData: 'Der Speicherort eines Auftrags mit gespeicherten Sicherungen kann nicht geändert werden.',
  caseOnLegalHold: 'Ein Fall unter Legal Hold kann nicht gelöscht werden; heben Sie den Legal Hold zuerst auf.',
  emailTaken: 'Es gibt bereits einen Benutzer mit dieser E-Mail-Adresse.',
  shortNameTaken: 'Dieser Kurzname wird bereits von einer Ihrer Organisationen verwendet.',
  shortNameAmbiguous:
    'Mehrere Organisationen, für die Sie handeln, haben diesen Kurznamen; daher ist nicht eindeutig, wessen Dokumente gemeint sind.',
  caseLimitReached:
    'Ein Mandant bewahrt höchstens 500 eDiscovery-Fälle auf; löschen Sie einen, bevor Sie einen weiteren speichern.',
  holdNeedsCustodians:
    'Ein Legal Hold braucht mindestens einen Verwahrer: Speichern Sie den Fall mit den Postfächern, Teams oder Chat-Konten, die er bewahren soll.',
  ediscoveryManagerRequired:
    'Legal Holds setzen und aufheben dürfen nur eDiscovery-Manager. Bitten Sie eine Administratorin oder einen Administrator Ihrer Organisation um diese Rolle.',
  accountDeactivated:
    'Dieses Konto wurde deaktiviert. Bitten Sie eine Administratorin oder einen Administrator Ihrer Organisation, es wieder zu aktivieren.',
  ownAccount: 'Ihr eigenes Konto können Sie nicht deaktivieren oder löschen.',
  lastAdministrator:
    'Dies ist die letzte aktive Administratorin bzw. der letzte aktive Administrator der Organisation. Laden Sie zuerst eine weitere Person ein oder aktivieren Sie eine wieder.',
  invitationAccepted: 'Diese Person hat die Einladung bereits angenommen.',
  invitationInvalid:
    'Dieser Einladungslink ist nicht mehr gültig: Er wurde benutzt, ist abgelaufen oder wurde durch einen neueren ersetzt. Bitten Sie Ihre Administration, ihn erneut zu senden.',
  userDeactivated: 'Diese Person ist deaktiviert. Aktivieren Sie sie zuerst wieder.',
  currentSession: 'Dies ist die Sitzung, die Sie gerade verwenden. Melden Sie sich stattdessen über das Kontomenü ab.',
};
