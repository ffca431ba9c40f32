/** English texts of account self-service on /account/settings and the user menu (spread into ../en.ts). */
export const accountSecurityNamespaces = {
  accountSecurity: {
    sections: 'Sections of the account settings',
    tabs: {
      notifications: 'Notifications',
      security: 'Sign-in and security',
      activity: 'Sign-in activity',
    },
    menu: {
      security: 'Password, email and authenticator',
      activity: 'Sign-in activity',
      notifications: 'Notification settings',
    },
    currentPassword: 'Current password',
    newPassword: 'New password',
    confirmPassword: 'New password again',
    code: '6-digit code from your authenticator app',
    recoveryCode: 'Recovery code',
    useRecoveryCode: 'Use a recovery code instead',
    useCode: 'Use a code from the app instead',
    email: {
      title: 'Email address',
      current: 'Your address is {{email}}.',
      confirmed: 'Confirmed',
      unconfirmed: 'Not confirmed yet',
      intro:
        'A confirmation link goes to the new address, and your current address is told. The address changes when the link is opened; then every session ends and you sign in with the new address.',
      newEmail: 'New email address',
      same: 'This is already your address.',
      submit: 'Change email address',
      sent: 'A confirmation link is on its way to {{newEmail}}. Your address stays {{email}} until you open it; {{email}} was told about the change.',
    },
    organisationSignIn: {
      title: 'How your organisation signs in',
      intro: 'These settings apply to every member of your organisation.',
      microsoft: 'Sign in with Microsoft (Entra ID)',
      microsoftHint: "Members are matched by their verified email address in your organisation's Entra tenant.",
      notOffered:
        'This portal is not registered with Microsoft Entra ID, so sign-in with Microsoft cannot be turned on here.',
      tenantId: 'Entra tenant ID',
      tenantHint: 'The directory (tenant) ID on the overview page of the Microsoft Entra admin center.',
      tenantInvalid: 'A tenant ID looks like 72f988bf-86f1-41af-91ab-2d7cd011db47.',
      password: 'Password and authenticator app',
      passwordHint:
        "Turn this off only after you have signed in with Microsoft yourself, once your organisation's tenant is confirmed.",
      save: 'Save sign-in settings',
      saved: "The sign-in settings were saved. Your organisation's administrators were told by email.",
      failed: 'The sign-in settings could not be loaded.',
      tenantStatus: 'Entra tenant',
      pendingTitle: 'Waiting for confirmation',
      pending:
        'Set on {{since}} by {{by}}. To confirm it, a member of your organisation signs in with Microsoft from this tenant by {{until}}: the first such sign-in binds the tenant to your organisation.',
      pendingNoOne:
        'Set on {{since}}. To confirm it, a member of your organisation signs in with Microsoft from this tenant by {{until}}: the first such sign-in binds the tenant to your organisation.',
      pendingWhy:
        'Why: so that no other organisation can claim a Microsoft directory it does not control. Until then, password sign-in stays on.',
      confirm: 'Sign in with Microsoft to confirm',
      confirmHint:
        "You sign in on your organisation's Microsoft page with your work account, and come back here signed in with it.",
      confirmNotNow: 'To confirm it, turn on sign-in with Microsoft and save.',
      expiredTitle: 'Confirmation expired',
      expired:
        'Set on {{since}}, not confirmed by {{until}}: nobody signs in with this tenant. Start again to wait another 7 days for a sign-in with Microsoft from it.',
      startAgain: 'Start again',
      boundTitle: 'Confirmed',
      bound: 'Confirmed for your organisation on {{since}}: {{by}} signed in with Microsoft from it.',
      boundByOperator: "Confirmed for your organisation on {{since}} by the portal's operator.",
      reauthTitle: 'Confirm that it is you',
      reauthIntro:
        'This changes how every member of your organisation signs in. Enter your password and a code from your authenticator app, or a recovery code. The administrators are told by email.',
      reauthMicrosoftOnly:
        'Your account has no authenticator app, so only a new sign-in with Microsoft confirms the change. Sign in with Microsoft, then save within 10 minutes.',
      reauthMicrosoft: 'Sign in with Microsoft again',
      reauthSubmit: 'Confirm and save',
      microsoftRecent: 'You signed in with Microsoft a few minutes ago: until {{until}} changes need no password.',
    },
    password: {
      title: 'Password',
      intro: 'Changing the password signs out every other session; this one stays signed in.',
      same: 'The new password must differ from the current one.',
      submit: 'Change password',
      done: 'Your password was changed. Every other session was signed out.',
    },
    authenticator: {
      title: 'Authenticator app',
      loadFailed: 'Your two-factor settings could not be read.',
      on_one: 'Two-factor sign-in is on. {{count}} recovery code is left.',
      on_other: 'Two-factor sign-in is on. {{count}} recovery codes are left.',
      off: 'Two-factor sign-in is off. Set up your authenticator app to protect your account.',
      setUp: 'Set up the authenticator app',
      resetTitle: 'Reset the authenticator',
      resetIntro:
        'For a new phone or app. Confirm with your password and a current code or a recovery code, then scan a new QR code. Every other session is signed out.',
      resetSubmit: 'Reset and set up again',
      codesTitle: 'New recovery codes',
      codesIntro:
        'Makes 10 new recovery codes; the old ones stop working. Confirm with your password and a current code.',
      codesSubmit: 'Make new recovery codes',
      codesShown:
        'Your new recovery codes. They are shown only this once: copy or download them and keep them safe. Your old codes no longer work.',
      codesSaved: 'I have saved them',
    },
    errors: {
      OldPasswordRequired: 'Enter your current password.',
      PasswordMismatch: 'The current password is wrong.',
      RequiresTwoFactor: 'Enter a code from your authenticator app or a recovery code.',
      InvalidTwoFactorCode: 'The code is wrong or was already used. Wait for the next code and try again.',
      Lockedout: 'Too many wrong attempts: the account is locked for a few minutes.',
      InvalidEmail: 'This email address is not valid.',
      passwordRules: 'The new password does not follow the rules.',
      tooMany: 'Too many attempts from this address. Wait a minute and try again.',
      failed: 'The change could not be made. Please try again.',
    },
    activity: {
      title: 'Recent sign-ins',
      intro:
        'Sign-ins to your account and the attempts that failed, newest first. Something you do not recognise? Change your password and sign out every other session.',
      empty: 'No sign-in has been recorded yet.',
      failed: 'Your sign-in activity could not be loaded.',
      list: 'Sign-in events',
      kinds: {
        signedIn: 'Signed in',
        passwordAccepted: 'Password accepted',
        passwordRefused: 'Wrong password',
        codeRefused: 'Wrong code',
        lockedOut: 'Refused: the account was locked',
        notAllowed: 'Refused: sign-in not allowed yet',
        tokenReplayed: 'A used sign-in token came back: its sessions were ended',
        microsoftRefused: 'Sign-in with Microsoft refused',
      },
      methods: {
        authenticator: 'with the authenticator app',
        recoveryCode: 'with a recovery code',
        setup: 'setting up the authenticator app',
        microsoft: 'with Microsoft',
      },
      apis: { legacy: 'Portal', apollo: 'API' },
      outcomes: { success: 'Succeeded', failure: 'Failed' },
      from: 'from {{ip}}',
      unknownAddress: 'from an unknown address',
      page: 'Page {{page}} of {{pages}}',
      newer: 'Newer',
      older: 'Older',
    },
    sessions: {
      // The page's button opens the confirmation, whose own button (revoke) signs them out.
      open: 'Sign out every other session…',
      revoke: 'Sign out every other session',
      confirmTitle: 'Sign out every other session?',
      confirmText:
        'Every other browser, device and API client signed in to your account is signed out. This session stays signed in.',
      done_one: '{{count}} other session was signed out.',
      done_other: '{{count}} other sessions were signed out.',
    },
  },
} as const;
