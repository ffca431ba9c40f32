/**
 * The user-facing error messages in English, by key ({@link ErrorMessageKey}): the messages by status
 * and by text, the client's own, and one per refusal code. A module of its own, so that an app that
 * shows English first bundles no other language (see messages-de.ts).
 */
import type { ErrorCode } from './codes.js';
import type { ErrorMessageKey } from './message-keys.js';

/** Every user-facing error message in English, by {@link ErrorMessageKey}. */
export const englishErrorMessages = {
  badRequest: 'Invalid request',
  unauthorized: 'Unauthorized',
  forbidden: 'Access denied',
  notFound: 'Resource not found',
  internalServerError: 'Internal server error',
  generic: 'An error occurred, please try again later',
  failedToRetrieveData: 'Failed to retrieve data',
  invalidCredentials: 'Invalid Credentials',
  accountLocked: 'The account is locked for 5 minutes after too many failed attempts.',
  loginVerificationFailed: 'Login verification failed',
  requestFailed404: 'The requested resource could not be found (404)',
  requestFailed400: 'The server could not process the request (400)',
  requestTimeout: 'The request took too long and was cancelled',
  invalidVerificationCode: 'Invalid Verification Code',
  userDoesNotExist: 'User Does Not Exist',
  networkError: 'Network error: the server is temporarily unable to handle the request',
  unknown: 'Unknown error',
  trialBackupJobs: 'Your trial licence allows one backup job per application, and this application already has one.',
  trialSources: 'Your trial licence allows at most 10 accounts, sites or teams per backup.',
  trialRestores: 'Your trial licence allows at most 10 restores per application, and this application has reached it.',
  trialNoDelete: 'Backup jobs cannot be deleted on a trial licence.',
  entraNotAvailable: 'Sign in with Microsoft is not turned on for this account. Sign in with your password.',
  entraUnavailable: 'Microsoft Entra ID could not be reached. Please try again in a few minutes.',
  entraOtherTenant:
    "This Microsoft account belongs to another directory than your organisation's. Sign in with your organisation's Microsoft account.",
  entraWrongAudience:
    "Microsoft issued this sign-in for another application. Please try again; if it keeps failing, ask your administrator to check the portal's app registration.",
  entraExpired: 'The Microsoft sign-in has expired. Please sign in again.',
  entraReplayed: 'This Microsoft sign-in was already used or belongs to another sign-in. Please sign in again.',
  entraBadSignature: 'The Microsoft sign-in could not be verified: its signature is not valid. Please sign in again.',
  entraNoVerifiedEmail:
    'Your Microsoft account has no verified email address, so it cannot be matched to a portal account.',
  entraNoAccount: 'No portal account of your organisation matches this Microsoft account.',
  passwordSignInOff: 'Your organisation signs in with Microsoft only. Use “Sign in with Microsoft”.',
  entraTenantRequired: "Enter your organisation's Entra tenant ID to turn on sign-in with Microsoft.",
  passwordOffNeedsMicrosoft:
    'Password sign-in can be turned off only while sign-in with Microsoft is on, and after you have signed in with Microsoft yourself.',
  entraTenantTaken:
    "This Entra tenant is already confirmed for another organisation. If it is your organisation's, ask the portal's operator to reassign it.",
  passwordOffNeedsBoundTenant:
    "Password sign-in can be turned off only once your organisation's Entra tenant is confirmed: a member must first sign in with Microsoft from it.",
  reauthenticationRequired:
    'Confirm that it is you: enter your password and a code from your authenticator app (or a recovery code), or sign in with Microsoft again.',
  reauthenticationPasswordWrong: 'The password is wrong. Nothing was changed.',
  reauthenticationCodeWrong:
    'The code is wrong or was already used. Nothing was changed; wait for the next code and try again.',
  storeUnreachable: 'The storage service could not be reached at the site address.',
  storeCredentialsRefused: 'The storage service refused the access key or secret.',
  storeNotFound: 'The container or bucket of the site address does not exist.',
  storeProbeFailed: 'A test object could not be written, read back and deleted in the storage location.',
  locationHoldsData:
    'The site address of a location that holds backed-up or archived data cannot be moved to another store.',
  jobLocationHoldsData: 'The storage location of a job that has stored backups cannot be changed.',
  caseOnLegalHold: 'A case on legal hold cannot be deleted; release the hold first.',
  emailTaken: 'A user with this email already exists.',
  shortNameTaken: 'This short name is already used by one of your organisations.',
  shortNameAmbiguous:
    'More than one organisation you act for has this short name, so it does not say whose documents are meant.',
  caseLimitReached: 'A tenant keeps at most 500 eDiscovery cases; delete one before saving another.',
  holdNeedsCustodians:
    'A legal hold needs at least one custodian: save the case with the mailboxes, teams or chat accounts it keeps.',
  ediscoveryManagerRequired:
    'Only eDiscovery managers place and release legal holds. Ask an administrator of your organisation for the role.',
  accountDeactivated: 'This account has been deactivated. Ask an administrator of your organisation to reactivate it.',
  ownAccount: 'You cannot deactivate or delete your own account.',
  lastAdministrator:
    "This is the organisation's last active administrator. Invite or reactivate another administrator first.",
  invitationAccepted: 'This user has accepted the invitation already.',
  invitationInvalid:
    'This invitation link is not valid any more: it was used, has expired or was replaced by a newer one. Ask your administrator to send it again.',
  userDeactivated: 'This user is deactivated. Reactivate them first.',
  currentSession: 'This is the session you are using. Sign out from the account menu instead.',
  // Every refusal code has a message of its own.
} as const satisfies Record<string, string> & Record<ErrorCode, string>;
