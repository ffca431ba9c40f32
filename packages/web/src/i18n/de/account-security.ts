import type { Leaves } from '../en';
import type { accountSecurityNamespaces as En } from '../en/account-security';

/** German texts of account self-service on /account/settings and the user menu: the same keys as the English ones. */
export const accountSecurityNamespaces: Leaves<typeof En> = {
  accountSecurity: {
    sections: 'Bereiche der Kontoeinstellungen',
    tabs: {
      notifications: 'Benachrichtigungen',
      security: 'Anmeldung und Sicherheit',
      activity: 'Anmeldeaktivität',
    },
    menu: {
      security: 'Passwort, E-Mail und Authenticator',
      activity: 'Anmeldeaktivität',
      notifications: 'Benachrichtigungseinstellungen',
    },
    currentPassword: 'Aktuelles Passwort',
    newPassword: 'Neues Passwort',
    confirmPassword: 'Neues Passwort wiederholen',
    code: '6-stelliger Code aus Ihrer Authenticator-App',
    recoveryCode: 'Wiederherstellungscode',
    useRecoveryCode: 'Stattdessen einen Wiederherstellungscode verwenden',
    useCode: 'Stattdessen einen Code aus der App verwenden',
    email: {
      title: 'E-Mail-Adresse',
      current: 'Ihre Adresse ist {{email}}.',
      confirmed: 'Bestätigt',
      unconfirmed: 'Noch nicht bestätigt',
      intro:
        'Ein Bestätigungslink geht an die neue Adresse, und Ihre bisherige Adresse wird benachrichtigt. Die Adresse ändert sich, sobald der Link geöffnet wird; dann enden alle Sitzungen und Sie melden sich mit der neuen Adresse an.',
      newEmail: 'Neue E-Mail-Adresse',
      same: 'Das ist bereits Ihre Adresse.',
      submit: 'E-Mail-Adresse ändern',
      sent: 'Ein Bestätigungslink ist an {{newEmail}} unterwegs. Ihre Adresse bleibt {{email}}, bis Sie ihn öffnen; {{email}} wurde über die Änderung benachrichtigt.',
    },
    organisationSignIn: {
      title: 'So meldet sich Ihre Organisation an',
      intro: 'Diese Einstellungen gelten für alle Mitglieder Ihrer Organisation.',
      microsoft: 'Mit Microsoft anmelden (Entra ID)',
      microsoftHint:
        'Mitglieder werden über ihre bestätigte E-Mail-Adresse im Entra-Mandanten Ihrer Organisation zugeordnet.',
      notOffered:
        'Dieses Portal ist nicht bei Microsoft Entra ID registriert, daher kann die Anmeldung mit Microsoft hier nicht aktiviert werden.',
      tenantId: 'Entra-Mandanten-ID',
      tenantHint: 'Die Verzeichnis-ID (Mandanten-ID) auf der Übersichtsseite des Microsoft Entra Admin Centers.',
      tenantInvalid: 'Eine Mandanten-ID sieht so aus: 72f988bf-86f1-41af-91ab-2d7cd011db47.',
      password: 'Passwort und Authenticator-App',
      passwordHint:
        'Schalten Sie dies erst ab, nachdem Sie sich selbst mit Microsoft angemeldet haben und der Mandant Ihrer Organisation bestätigt ist.',
      save: 'Anmeldeeinstellungen speichern',
      saved:
        'Die Anmeldeeinstellungen wurden gespeichert. Die Administratoren Ihrer Organisation wurden per E-Mail informiert.',
      failed: 'Die Anmeldeeinstellungen konnten nicht geladen werden.',
      tenantStatus: 'Entra-Mandant',
      pendingTitle: 'Wartet auf Bestätigung',
      pending:
        'Eingetragen am {{since}} von {{by}}. Zur Bestätigung meldet sich ein Mitglied Ihrer Organisation bis {{until}} mit Microsoft aus diesem Mandanten an: Die erste solche Anmeldung bindet den Mandanten an Ihre Organisation.',
      pendingNoOne:
        'Eingetragen am {{since}}. Zur Bestätigung meldet sich ein Mitglied Ihrer Organisation bis {{until}} mit Microsoft aus diesem Mandanten an: Die erste solche Anmeldung bindet den Mandanten an Ihre Organisation.',
      pendingWhy:
        'Warum: Damit keine andere Organisation ein Microsoft-Verzeichnis beanspruchen kann, das sie nicht verwaltet. Bis dahin bleibt die Anmeldung mit Passwort aktiv.',
      confirm: 'Zur Bestätigung mit Microsoft anmelden',
      confirmHint:
        'Sie melden sich auf der Microsoft-Seite Ihrer Organisation mit Ihrem Arbeitskonto an und kommen damit angemeldet hierher zurück.',
      confirmNotNow: 'Um ihn zu bestätigen, aktivieren Sie die Anmeldung mit Microsoft und speichern Sie.',
      expiredTitle: 'Bestätigung abgelaufen',
      expired:
        'Eingetragen am {{since}}, bis {{until}} nicht bestätigt: Mit diesem Mandanten meldet sich niemand an. Beginnen Sie neu, um weitere 7 Tage auf eine Anmeldung mit Microsoft daraus zu warten.',
      startAgain: 'Neu beginnen',
      boundTitle: 'Bestätigt',
      bound: 'Für Ihre Organisation bestätigt am {{since}}: {{by}} hat sich daraus mit Microsoft angemeldet.',
      boundByOperator: 'Für Ihre Organisation bestätigt am {{since}} durch den Betreiber des Portals.',
      reauthTitle: 'Bestätigen Sie, dass Sie es sind',
      reauthIntro:
        'Dies ändert, wie sich alle Mitglieder Ihrer Organisation anmelden. Geben Sie Ihr Passwort und einen Code aus Ihrer Authenticator-App oder einen Wiederherstellungscode ein. Die Administratoren werden per E-Mail informiert.',
      reauthMicrosoftOnly:
        'Ihr Konto hat keine Authenticator-App, daher bestätigt nur eine neue Anmeldung mit Microsoft die Änderung. Melden Sie sich mit Microsoft an und speichern Sie dann innerhalb von 10 Minuten.',
      reauthMicrosoft: 'Erneut mit Microsoft anmelden',
      reauthSubmit: 'Bestätigen und speichern',
      microsoftRecent:
        'Sie haben sich vor wenigen Minuten mit Microsoft angemeldet: Bis {{until}} brauchen Änderungen kein Passwort.',
    },
    password: {
      title: 'Passwort',
      intro: 'Eine Passwortänderung meldet alle anderen Sitzungen ab; diese bleibt angemeldet.',
      same: 'Das neue Passwort muss sich vom aktuellen unterscheiden.',
      submit: 'Passwort ändern',
      done: 'Ihr Passwort wurde geändert. Alle anderen Sitzungen wurden abgemeldet.',
    },
    authenticator: {
      title: 'Authenticator-App',
      loadFailed: 'Ihre Einstellungen zur Zwei-Faktor-Anmeldung konnten nicht gelesen werden.',
      on_one: 'Die Zwei-Faktor-Anmeldung ist aktiv. {{count}} Wiederherstellungscode ist übrig.',
      on_other: 'Die Zwei-Faktor-Anmeldung ist aktiv. {{count}} Wiederherstellungscodes sind übrig.',
      off: 'Die Zwei-Faktor-Anmeldung ist aus. Richten Sie Ihre Authenticator-App ein, um Ihr Konto zu schützen.',
      setUp: 'Authenticator-App einrichten',
      resetTitle: 'Authenticator zurücksetzen',
      resetIntro:
        'Für ein neues Telefon oder eine neue App. Bestätigen Sie mit Ihrem Passwort und einem aktuellen Code oder einem Wiederherstellungscode und scannen Sie dann einen neuen QR-Code. Alle anderen Sitzungen werden abgemeldet.',
      resetSubmit: 'Zurücksetzen und neu einrichten',
      codesTitle: 'Neue Wiederherstellungscodes',
      codesIntro:
        'Erzeugt 10 neue Wiederherstellungscodes; die alten gelten nicht mehr. Bestätigen Sie mit Ihrem Passwort und einem aktuellen Code.',
      codesSubmit: 'Neue Wiederherstellungscodes erzeugen',
      codesShown:
        'Ihre neuen Wiederherstellungscodes. Sie werden nur dieses eine Mal angezeigt: Kopieren oder laden Sie sie herunter und bewahren Sie sie sicher auf. Ihre alten Codes gelten nicht mehr.',
      codesSaved: 'Ich habe sie gespeichert',
    },
    errors: {
      OldPasswordRequired: 'Geben Sie Ihr aktuelles Passwort ein.',
      PasswordMismatch: 'Das aktuelle Passwort ist falsch.',
      RequiresTwoFactor: 'Geben Sie einen Code aus Ihrer Authenticator-App oder einen Wiederherstellungscode ein.',
      InvalidTwoFactorCode:
        'Der Code ist falsch oder wurde schon verwendet. Warten Sie auf den nächsten Code und versuchen Sie es erneut.',
      Lockedout: 'Zu viele falsche Versuche: Das Konto ist für einige Minuten gesperrt.',
      InvalidEmail: 'Diese E-Mail-Adresse ist ungültig.',
      passwordRules: 'Das neue Passwort erfüllt die Regeln nicht.',
      tooMany: 'Zu viele Versuche von dieser Adresse. Warten Sie eine Minute und versuchen Sie es erneut.',
      failed: 'Die Änderung konnte nicht vorgenommen werden. Bitte versuchen Sie es erneut.',
    },
    activity: {
      title: 'Letzte Anmeldungen',
      intro:
        'Anmeldungen an Ihrem Konto und fehlgeschlagene Versuche, die neuesten zuerst. Etwas kommt Ihnen unbekannt vor? Ändern Sie Ihr Passwort und melden Sie alle anderen Sitzungen ab.',
      empty: 'Es wurde noch keine Anmeldung aufgezeichnet.',
      failed: 'Ihre Anmeldeaktivität konnte nicht geladen werden.',
      list: 'Anmeldeereignisse',
      kinds: {
        signedIn: 'Angemeldet',
        passwordAccepted: 'Passwort akzeptiert',
        passwordRefused: 'Falsches Passwort',
        codeRefused: 'Falscher Code',
        lockedOut: 'Abgelehnt: Das Konto war gesperrt',
        notAllowed: 'Abgelehnt: Anmeldung noch nicht erlaubt',
        tokenReplayed: 'Ein bereits verwendetes Anmeldetoken kam erneut: Seine Sitzungen wurden beendet',
        microsoftRefused: 'Anmeldung mit Microsoft abgelehnt',
      },
      methods: {
        authenticator: 'mit der Authenticator-App',
        recoveryCode: 'mit einem Wiederherstellungscode',
        setup: 'beim Einrichten der Authenticator-App',
        microsoft: 'mit Microsoft',
      },
      apis: { legacy: 'Portal', apollo: 'API' },
      outcomes: { success: 'Erfolgreich', failure: 'Fehlgeschlagen' },
      from: 'von {{ip}}',
      unknownAddress: 'von unbekannter Adresse',
      page: 'Seite {{page}} von {{pages}}',
      newer: 'Neuere',
      older: 'Ältere',
    },
    sessions: {
      open: 'Alle anderen Sitzungen abmelden…',
      revoke: 'Alle anderen Sitzungen abmelden',
      confirmTitle: 'Alle anderen Sitzungen abmelden?',
      confirmText:
        'Alle anderen Browser, Geräte und API-Clients, die an Ihrem Konto angemeldet sind, werden abgemeldet. Diese Sitzung bleibt angemeldet.',
      done_one: '{{count}} andere Sitzung wurde abgemeldet.',
      done_other: '{{count}} andere Sitzungen wurden abgemeldet.',
    },
  },
};
