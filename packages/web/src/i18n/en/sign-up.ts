/** English texts of signing up and confirming the address (namespaces spread into ../en.ts). */
export const signUpNamespaces = {
  signUp: {
    title: 'Create an account',
    intro:
      'Start a new organisation in the portal on a trial licence. You become its administrator and connect your Microsoft 365 tenant after signing in.',
    joinHint: 'Does your organisation use the portal already? Then ask one of its administrators to add you instead.',
    submit: 'Create account',
    submitting: 'Creating your account…',
    haveAccount: 'Already have an account?',
    errors: {
      DuplicateUserName:
        'An account with this address exists already. Sign in, or reset its password if you forgot it.',
      InvalidEmail: 'The server does not accept this email address.',
      passwordRules: 'The password needs {{rules}}.',
      rules: {
        PasswordTooShort: 'at least 8 characters',
        PasswordRequiresNonAlphanumeric: 'a special character',
        PasswordRequiresDigit: 'a digit',
        PasswordRequiresLower: 'a lower-case letter',
        PasswordRequiresUpper: 'an upper-case letter',
      },
      tooMany: 'Too many attempts from this address. Wait a minute, then try again.',
      failed: 'The account could not be created. Please try again.',
    },
    closed: {
      title: 'Sign-up is closed',
      text: 'This portal does not let people create accounts themselves.',
      colleagues:
        'If your organisation uses the portal already, ask one of its administrators to add you (Configuration › Users).',
      partner: 'If a partner looks after your organisation, ask the partner.',
      operator: 'To bring a new organisation to the portal, write to its operator:',
    },
    checkMail: {
      title: 'Check your mail',
      sentTo: 'We sent a confirmation link to',
      sentToUnknown: 'We sent a confirmation link to the address you signed up with.',
      next: 'Open it within 24 hours to confirm your address. Then sign in: the first sign-in sets up your authenticator app.',
      noMail: 'No mail after a few minutes? Look in your spam folder, or send it again.',
      wrongAddress: 'Wrong address? Sign up again',
    },
    resend: {
      button: 'Send the confirmation mail again',
      sent: 'If the address has an account waiting for confirmation, a new link is on its way.',
      failed: 'The mail could not be sent again. Please try again.',
    },
    confirm: {
      title: 'Confirm your email address',
      pending: 'Confirming your email address…',
      confirmed: 'Your email address {{email}} is confirmed.',
      confirmedNext: 'Sign in now: the first sign-in sets up your authenticator app.',
      changed: 'Your new email address {{email}} is confirmed.',
      changedNext: 'Every session of your account has ended. Sign in again with the new address.',
      alreadyConfirmed: 'The email address {{email}} is already confirmed.',
      alreadyConfirmedNext: 'Nothing more to do here: sign in.',
      expired: 'This link has expired: a link works for 24 hours.',
      expiredNext: 'Enter your address to get a new one.',
      used: 'This link was already used, or a newer link replaced it.',
      usedNext: 'If your address is not confirmed yet, enter it to get a new link. Otherwise, sign in.',
      invalid: 'This link is not valid.',
      invalidNext: 'Open the whole link from the mail, or enter your address to get a new one.',
      changeAgain:
        'Sign in with your current address and ask for the change again under Notification settings › Sign-in and security.',
      failed: 'The address could not be confirmed just now.',
    },
  },
} as const;
