import type { Leaves } from '../en';
import type { signUpNamespaces as En } from '../en/sign-up';

/** German texts of signing up and confirming the address (same keys as ../en/sign-up.ts). */
export const signUpNamespaces: Leaves<typeof En> = {
  signUp: {
    title: 'Konto erstellen',
    intro:
      'Legen Sie eine neue Organisation im Portal mit einer Testlizenz an. Sie werden ihre Administratorin oder ihr Administrator und verbinden nach der Anmeldung Ihren Microsoft-365-Mandanten.',
    joinHint:
      'Nutzt Ihre Organisation das Portal bereits? Dann bitten Sie stattdessen eine Administratorin oder einen Administrator der Organisation, Sie hinzuzufügen.',
    submit: 'Konto erstellen',
    submitting: 'Ihr Konto wird erstellt …',
    haveAccount: 'Sie haben schon ein Konto?',
    errors: {
      DuplicateUserName:
        'Zu dieser Adresse gibt es bereits ein Konto. Melden Sie sich an oder setzen Sie das Passwort zurück, falls Sie es vergessen haben.',
      InvalidEmail: 'Der Server nimmt diese E-Mail-Adresse nicht an.',
      passwordRules: 'Das Passwort braucht {{rules}}.',
      rules: {
        PasswordTooShort: 'mindestens 8 Zeichen',
        PasswordRequiresNonAlphanumeric: 'ein Sonderzeichen',
        PasswordRequiresDigit: 'eine Ziffer',
        PasswordRequiresLower: 'einen Kleinbuchstaben',
        PasswordRequiresUpper: 'einen Großbuchstaben',
      },
      tooMany: 'Zu viele Versuche von dieser Adresse. Warten Sie eine Minute und versuchen Sie es dann erneut.',
      failed: 'Das Konto konnte nicht erstellt werden. Bitte versuchen Sie es erneut.',
    },
    closed: {
      title: 'Die Registrierung ist geschlossen',
      text: 'In diesem Portal können Konten nicht selbst erstellt werden.',
      colleagues:
        'Nutzt Ihre Organisation das Portal bereits, bitten Sie eine Administratorin oder einen Administrator, Sie hinzuzufügen (Konfiguration › Benutzer).',
      partner: 'Betreut ein Partner Ihre Organisation, wenden Sie sich an den Partner.',
      operator: 'Um eine neue Organisation ins Portal zu bringen, schreiben Sie dem Betreiber:',
    },
    checkMail: {
      title: 'Prüfen Sie Ihr Postfach',
      sentTo: 'Wir haben einen Bestätigungslink geschickt an',
      sentToUnknown: 'Wir haben einen Bestätigungslink an die Adresse geschickt, mit der Sie sich registriert haben.',
      next: 'Öffnen Sie ihn innerhalb von 24 Stunden, um Ihre Adresse zu bestätigen. Melden Sie sich dann an: Bei der ersten Anmeldung richten Sie Ihre Authenticator-App ein.',
      noMail: 'Nach ein paar Minuten keine Mail? Sehen Sie im Spam-Ordner nach oder lassen Sie sie erneut senden.',
      wrongAddress: 'Falsche Adresse? Erneut registrieren',
    },
    resend: {
      button: 'Bestätigungsmail erneut senden',
      sent: 'Gehört die Adresse zu einem Konto, das auf die Bestätigung wartet, ist ein neuer Link unterwegs.',
      failed: 'Die Mail konnte nicht erneut gesendet werden. Bitte versuchen Sie es erneut.',
    },
    confirm: {
      title: 'E-Mail-Adresse bestätigen',
      pending: 'Ihre E-Mail-Adresse wird bestätigt …',
      confirmed: 'Ihre E-Mail-Adresse {{email}} ist bestätigt.',
      confirmedNext: 'Melden Sie sich jetzt an: Bei der ersten Anmeldung richten Sie Ihre Authenticator-App ein.',
      changed: 'Ihre neue E-Mail-Adresse {{email}} ist bestätigt.',
      changedNext: 'Alle Sitzungen Ihres Kontos wurden beendet. Melden Sie sich mit der neuen Adresse erneut an.',
      alreadyConfirmed: 'Die E-Mail-Adresse {{email}} ist bereits bestätigt.',
      alreadyConfirmedNext: 'Hier ist nichts mehr zu tun: Melden Sie sich an.',
      expired: 'Dieser Link ist abgelaufen: Ein Link gilt 24 Stunden.',
      expiredNext: 'Geben Sie Ihre Adresse ein, um einen neuen zu erhalten.',
      used: 'Dieser Link wurde bereits verwendet oder durch einen neueren ersetzt.',
      usedNext:
        'Ist Ihre Adresse noch nicht bestätigt, geben Sie sie ein, um einen neuen Link zu erhalten. Andernfalls melden Sie sich an.',
      invalid: 'Dieser Link ist ungültig.',
      invalidNext:
        'Öffnen Sie den vollständigen Link aus der Mail oder geben Sie Ihre Adresse ein, um einen neuen zu erhalten.',
      changeAgain:
        'Melden Sie sich mit Ihrer bisherigen Adresse an und fordern Sie die Änderung unter Benachrichtigungen › Anmeldung und Sicherheit erneut an.',
      failed: 'Die Adresse konnte gerade nicht bestätigt werden.',
    },
  },
};
