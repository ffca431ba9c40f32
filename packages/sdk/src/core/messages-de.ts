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
  registrationClosed:
    'Die Registrierung ist in diesem Portal geschlossen. Bitten Sie die Administration Ihrer Organisation oder den Betreiber des Portals um ein Konto.',
  emailNotConfirmed:
    'Bestätigen Sie zuerst Ihre E-Mail-Adresse: Öffnen Sie den Link in der Mail, die wir Ihnen geschickt haben.',
  confirmationLinkExpired: 'Dieser Bestätigungslink ist abgelaufen.',
  confirmationLinkUsed: 'Dieser Bestätigungslink wurde bereits verwendet oder durch einen neueren ersetzt.',
  confirmationLinkInvalid: 'Dieser Bestätigungslink ist ungültig.',
  consentStateUnknown:
    'Diese Antwort von Microsoft gehört zu keiner Verbindung, die Sie hier begonnen haben, oder sie wurde schon verwendet. Beginnen Sie die Verbindung neu.',
  consentExpired: 'Die Administratorzustimmung hat länger als 10 Minuten gedauert. Beginnen Sie die Verbindung neu.',
  consentTenantConnected:
    'Dieser Microsoft-365-Mandant ist bereits mit dem Portal verbunden. Um erneut für ihn zuzustimmen, verwenden Sie seinen eigenen Link „Administratorzustimmung erteilen“.',
  m365HostNotFound:
    'Der Server des Portals findet die Adresse von Microsoft 365 nicht (DNS). Korrigieren Sie die DNS-Einstellungen des Servers, sodass er die Adressen von Microsoft 365 auflöst, etwa login.microsoftonline.com und graph.microsoft.com.',
  m365Unreachable:
    'Der Server des Portals erreicht Microsoft 365 nicht: Die Verbindung wurde abgelehnt oder lief in eine Zeitüberschreitung. Erlauben Sie dem Server in Firewall oder Proxy ausgehendes HTTPS (Port 443) zu den Adressen von Microsoft 365, etwa login.microsoftonline.com und graph.microsoft.com.',
  m365TlsFailed:
    'Die sichere Verbindung zu Microsoft 365 ist fehlgeschlagen: Der Server des Portals vertraut dem vorgelegten Zertifikat nicht. Wenn ein Proxy HTTPS prüft, geben Sie dem Server dessen Stammzertifikat (NODE_EXTRA_CA_CERTS).',
  m365SecretWrong:
    'Microsoft Entra ID hat den geheimen Clientschlüssel abgelehnt. Tragen Sie in den Einstellungen des Mandanten den Wert des Schlüssels (nicht seine ID) aus „Zertifikate & Geheimnisse“ der App-Registrierung ein.',
  m365SecretExpired:
    'Der geheime Clientschlüssel ist abgelaufen. Erstellen Sie unter „Zertifikate & Geheimnisse“ der App-Registrierung einen neuen und tragen Sie seinen Wert in den Einstellungen des Mandanten ein.',
  m365ApplicationUnknown:
    'Microsoft Entra ID kennt diese Anwendungs-ID (Client-ID) im Mandanten nicht. Übernehmen Sie die Anwendungs-ID (Client-ID) aus der Übersicht der App-Registrierung in die Einstellungen des Mandanten.',
  m365TenantUnknown:
    'Microsoft Entra ID kennt diese Mandanten-ID nicht. Übernehmen Sie die Verzeichnis-ID (Mandanten-ID) aus der Übersicht der App-Registrierung in die Einstellungen des Mandanten.',
  m365ConsentMissing:
    'Für die Berechtigungen der App-Registrierung hat in diesem Mandanten noch kein Administrator zugestimmt. Wählen Sie in den API-Berechtigungen der App-Registrierung „Administratorzustimmung erteilen“.',
  m365PermissionMissing:
    'Der App-Registrierung fehlt eine Berechtigung für Microsoft Graph, die hierfür nötig ist. Fügen Sie die hier genannte Anwendungsberechtigung unter „API-Berechtigungen“ hinzu und erteilen Sie die Administratorzustimmung.',
  m365AccessDenied:
    'Microsoft 365 hat den Zugriff verweigert, obwohl die App-Registrierung die nötigen Berechtigungen hat. Prüfen Sie die Zugriffsrichtlinien des Mandanten für die Anwendung, etwa eine Anwendungszugriffsrichtlinie von Exchange Online.',
  m365Throttled:
    'Microsoft 365 drosselt die Anfragen des Portals. Warten Sie so lange, wie Microsoft verlangt, und versuchen Sie es dann erneut.',
  m365Outage:
    'Microsoft 365 ist zurzeit nicht verfügbar (ein Fehler auf der Seite von Microsoft). Versuchen Sie es später erneut; der Dienststatus im Microsoft 365 Admin Center nennt bekannte Störungen.',
  m365TokenRefused:
    'Microsoft Entra ID hat für die App-Registrierung kein Token ausgestellt. Schlagen Sie den AADSTS-Code in der Fehlerreferenz von Microsoft nach und korrigieren Sie die App-Registrierung.',
  m365SecretMissing:
    'Für diesen Mandanten ist kein geheimer Clientschlüssel gespeichert. Tragen Sie den geheimen Clientschlüssel der App-Registrierung in den Einstellungen des Mandanten ein.',
  m365SecretUnreadable:
    'Der gespeicherte geheime Clientschlüssel lässt sich mit dem aktuellen Schlüssel des Servers (PORTAL_SECRET_KEY) nicht öffnen. Tragen Sie den geheimen Clientschlüssel in den Einstellungen des Mandanten erneut ein.',
  m365Failed:
    'Microsoft 365 hat mit einem Fehler geantwortet, den das Portal nicht kennt. Versuchen Sie es erneut; wenn er bleibt, senden Sie die Details an den Support.',
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
  mailNotSent:
    'Die E-Mail konnte nicht gesendet werden: Der Mailserver des Portals hat sie abgelehnt oder war nicht erreichbar. Prüfen Sie die Adresse oder bitten Sie den Betreiber des Portals, den Mailserver zu prüfen.',
  signInNotAllowed:
    'Dieses Konto kann sich noch nicht mit Passwort anmelden: Richten Sie zuerst die Authenticator-App ein oder bestätigen Sie die E-Mail-Adresse.',
  twoFactorRequired: 'Geben Sie den Code Ihrer Authenticator-App oder einen Wiederherstellungscode ein.',
  twoFactorAlreadySetUp: 'Die Authenticator-App ist bereits eingerichtet: Melden Sie sich mit einem ihrer Codes an.',
  twoFactorNotSetUp: 'Die Authenticator-App ist noch nicht eingerichtet: Scannen Sie zuerst den QR-Code.',
  authenticatorKeyMissing: 'Erzeugen Sie zuerst den QR-Code und bestätigen Sie ihn dann mit einem Code.',
  alreadySignedIn: 'Sie sind bereits angemeldet.',
};
