/**
 * The user-facing error messages in English, by key ({@link ErrorMessageKey}): the messages by status
 * and by text, the client's own, and one per refusal code. A module of its own, so that an app that
 * shows English first bundles no other language (see messages-de.ts).
 */
import type { ErrorCode } from './codes.js';
import type { ErrorMessageKey } from './message-keys.js';
import type { SignInRefusalCode } from './sign-in-refusals.js';

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
  registrationClosed:
    "Sign-up is closed on this portal. Ask your organisation's administrator or the portal's operator for an account.",
  emailNotConfirmed: 'Confirm your email address first: open the link in the mail we sent you.',
  confirmationLinkExpired: 'This confirmation link has expired.',
  confirmationLinkUsed: 'This confirmation link was already used or has been replaced.',
  confirmationLinkInvalid: 'This confirmation link is not valid.',
  consentStateUnknown:
    'This answer from Microsoft does not belong to a connection you started here, or it was used already. Start the connection again.',
  consentExpired: 'The admin consent took longer than 10 minutes. Start the connection again.',
  consentTenantConnected:
    'This Microsoft 365 tenant is already connected to the portal. To consent again for it, use its own “Grant admin consent” link.',
  m365HostNotFound:
    "The portal's server cannot find the address of Microsoft 365 (DNS). Correct the server's DNS settings so that it resolves Microsoft 365's addresses, such as login.microsoftonline.com and graph.microsoft.com.",
  m365Unreachable:
    "The portal's server cannot reach Microsoft 365: the connection was refused or timed out. Allow the server outbound HTTPS (port 443) to Microsoft 365's addresses, such as login.microsoftonline.com and graph.microsoft.com, in your firewall or proxy.",
  m365TlsFailed:
    "The secure connection to Microsoft 365 failed: the portal's server does not trust the certificate it was shown. If a proxy inspects HTTPS, give the server the proxy's root certificate (NODE_EXTRA_CA_CERTS).",
  m365SecretWrong:
    "Microsoft Entra ID refused the client secret. Enter the secret's value (not its secret ID) from the app registration's Certificates & secrets in the tenant's settings.",
  m365SecretExpired:
    "The client secret has expired. Create a new client secret in the app registration's Certificates & secrets and enter its value in the tenant's settings.",
  m365ApplicationUnknown:
    "Microsoft Entra ID does not know this application (client) ID in the tenant. Copy the Application (client) ID from the app registration's overview into the tenant's settings.",
  m365TenantUnknown:
    "Microsoft Entra ID does not know this tenant ID. Copy the Directory (tenant) ID from the app registration's overview into the tenant's settings.",
  m365ConsentMissing:
    "No administrator has consented to the app registration's permissions in this tenant. In the app registration's API permissions, choose Grant admin consent.",
  m365PermissionMissing:
    'The app registration lacks a Microsoft Graph permission this needs. Add the application permission named here under API permissions and grant admin consent.',
  m365AccessDenied:
    "Microsoft 365 refused access although the app registration has the permissions this needs. Check the tenant's access policies for the application, such as an Exchange Online application access policy.",
  m365Throttled: "Microsoft 365 is throttling the portal's requests. Wait as long as Microsoft asks, then try again.",
  m365Outage:
    "Microsoft 365 is not available at the moment (a failure on Microsoft's side). Try again later; the Microsoft 365 admin center's Service health lists known incidents.",
  m365TokenRefused:
    "Microsoft Entra ID refused to issue a token for the app registration. Look up the AADSTS code in Microsoft's error reference and correct the app registration.",
  m365SecretMissing:
    "No client secret is stored for this tenant. Enter the app registration's client secret in the tenant's settings.",
  m365SecretUnreadable:
    "The stored client secret cannot be opened with the server's current secret key (PORTAL_SECRET_KEY). Enter the client secret again in the tenant's settings.",
  m365Failed:
    'Microsoft 365 answered with an error the portal does not recognise. Try again; if it persists, send the details to support.',
  accountDeactivated: 'This account has been deactivated. Ask an administrator of your organisation to reactivate it.',
  ownAccount: 'You cannot deactivate or delete your own account.',
  lastAdministrator:
    "This is the organisation's last active administrator. Invite or reactivate another administrator first.",
  invitationAccepted: 'This user has accepted the invitation already.',
  invitationInvalid:
    'This invitation link is not valid any more: it was used, has expired or was replaced by a newer one. Ask your administrator to send it again.',
  userDeactivated: 'This user is deactivated. Reactivate them first.',
  currentSession: 'This is the session you are using. Sign out from the account menu instead.',
  mailNotSent:
    "The mail could not be sent: the portal's mail server refused it or could not be reached. Check the address, or ask the portal's operator to check the mail server.",
  // The sign-in refusals whose answers name no code: the SDK gives them one (sign-in-refusals.ts).
  signInNotAllowed:
    'This account may not sign in with a password yet: set up its authenticator app first, or confirm its email address.',
  twoFactorRequired: 'Enter the code of your authenticator app, or a recovery code.',
  twoFactorAlreadySetUp: 'The authenticator app is already set up: sign in with one of its codes.',
  twoFactorNotSetUp: 'The authenticator app is not set up yet: scan the QR code first.',
  authenticatorKeyMissing: 'Generate the QR code first, then confirm it with a code.',
  alreadySignedIn: 'You are already signed in.',
  // Every refusal code has a message of its own.
} as const satisfies Record<string, string> & Record<ErrorCode | SignInRefusalCode, string>;
