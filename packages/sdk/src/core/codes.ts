/**
 * The refusals clients act on: a machine-readable code each (apollo problem details carry it as the
 * `code` member, legacy errors as a `code` field) and the fixed text the server sends with it. The
 * server builds its refusals from here, and clients decide by `code`, never by text.
 */
import { EDISCOVERY_LIMITS } from '../limits.js';
import { matchedTexts } from './matched-texts.js';

/**
 * The text the server sends with each refusal {@link ErrorCode}, built from the refusal's argument (the
 * application, for two of the trial limits). For test servers and for matching answers that carry no
 * `code`; decide by `code`, never by this text.
 */
export const errorTexts = {
  ...matchedTexts,
  /** Legacy sign-in: too many failures; the account waits. */
  accountLocked: () => 'The account is locked for 5 minutes after too many failed attempts.',
  /** Sign-in with Microsoft (400): the address's organisation does not sign in with Microsoft, or there is no such account. */
  entraNotAvailable: () => 'Sign in with Microsoft is not turned on for this account. Sign in with your password.',
  /** Sign-in with Microsoft (503): the identity platform could not be reached. */
  entraUnavailable: () => 'Microsoft Entra ID could not be reached. Please try again in a few minutes.',
  /** Sign-in with Microsoft (400): the ID token was issued by another Entra tenant than the organisation's. */
  entraOtherTenant: () =>
    "This Microsoft account belongs to another directory than your organisation's. Sign in with your organisation's Microsoft account.",
  /** Sign-in with Microsoft (400): the ID token was issued for another application. */
  entraWrongAudience: () =>
    "Microsoft issued this sign-in for another application. Please try again; if it keeps failing, ask your administrator to check the portal's app registration.",
  /** Sign-in with Microsoft (400): the ID token or the sign-in request has expired. */
  entraExpired: () => 'The Microsoft sign-in has expired. Please sign in again.',
  /** Sign-in with Microsoft (400): the state was used before, or the ID token's nonce belongs to another sign-in. */
  entraReplayed: () => 'This Microsoft sign-in was already used or belongs to another sign-in. Please sign in again.',
  /** Sign-in with Microsoft (400): the ID token's signature does not verify against the tenant's keys. */
  entraBadSignature: () =>
    'The Microsoft sign-in could not be verified: its signature is not valid. Please sign in again.',
  /** Sign-in with Microsoft (400): the ID token has no verified email address. */
  entraNoVerifiedEmail: () =>
    'Your Microsoft account has no verified email address, so it cannot be matched to a portal account.',
  /** Sign-in with Microsoft (400): no user of the organisation has the ID token's email, or it is linked to another Microsoft account. */
  entraNoAccount: () => 'No portal account of your organisation matches this Microsoft account.',
  /** Password sign-in (403): the user's organisation signs in with Microsoft only. */
  passwordSignInOff: () => 'Your organisation signs in with Microsoft only. Use “Sign in with Microsoft”.',
  /** Sign-in settings (400): sign-in with Microsoft needs the organisation's Entra tenant id. */
  entraTenantRequired: () => "Enter your organisation's Entra tenant ID to turn on sign-in with Microsoft.",
  /** Sign-in settings (400): password sign-in may be turned off only with Microsoft sign-in on, by someone who has signed in with Microsoft. */
  passwordOffNeedsMicrosoft: () =>
    'Password sign-in can be turned off only while sign-in with Microsoft is on, and after you have signed in with Microsoft yourself.',
  /**
   * Sign-in settings and sign-in with Microsoft (409): another organisation has proved that it controls
   * this Entra tenant (a pending claim of it elsewhere does not count).
   */
  entraTenantTaken: () =>
    "This Entra tenant is already confirmed for another organisation. If it is your organisation's, ask the portal's operator to reassign it.",
  /** Sign-in settings (400): password sign-in may be turned off only once the organisation's Entra tenant is proved. */
  passwordOffNeedsBoundTenant: () =>
    "Password sign-in can be turned off only once your organisation's Entra tenant is confirmed: a member must first sign in with Microsoft from it.",
  /**
   * An organisation-wide security change (403): it needs the caller's password and a code of the
   * authenticator app (or a recovery code), or a sign-in with Microsoft within the last 10 minutes.
   */
  reauthenticationRequired: () =>
    'Confirm that it is you: enter your password and a code from your authenticator app (or a recovery code), or sign in with Microsoft again.',
  /** An organisation-wide security change (403): the password given to confirm it is wrong. */
  reauthenticationPasswordWrong: () => 'The password is wrong. Nothing was changed.',
  /** An organisation-wide security change (403): the authenticator code or recovery code given to confirm it is wrong or used. */
  reauthenticationCodeWrong: () =>
    'The code is wrong or was already used. Nothing was changed; wait for the next code and try again.',
  /** Saving a location (400): its object store (Azure Blob Storage, S3) did not answer at its address. */
  storeUnreachable: () => 'The storage service could not be reached at the site address.',
  /** Saving a location (400): the object store refused the access key or secret (401, 403). */
  storeCredentialsRefused: () => 'The storage service refused the access key or secret.',
  /** Saving a location (400): the container or bucket the site address names does not exist. */
  storeNotFound: () => 'The container or bucket of the site address does not exist.',
  /** Saving a location (400): the test object could not be written, read back and deleted; the reason follows. */
  storeProbeFailed: (reason: string) => `A test object could not be written, read back and deleted: ${reason}`,
  /**
   * Changing a location (409): data is stored in it, and the new site address names another store,
   * where that data is not.
   */
  locationHoldsData: () =>
    'The site address of a location that holds backed-up or archived data cannot be moved to another store.',
  /** Changing a job (409): its backups are in its storage location; a new location needs a new job. */
  jobLocationHoldsData: () => 'The storage location of a job that has stored backups cannot be changed.',
  /** Deleting an eDiscovery case (409): it is on legal hold; releasing the hold comes first. */
  caseOnLegalHold: () => 'A case on legal hold cannot be deleted; release the hold first.',
  /**
   * Creating a user or a partner's client (409): the address is already an account's. One address is
   * one account platform-wide; the answer is the same whoever's account it is.
   */
  emailTaken: () => 'A user with this email already exists.',
  /** A partner adding a client (409): its own organisation or one of its clients has the short name. */
  shortNameTaken: () => 'This short name is already used by one of your organisations.',
  /**
   * Documents by short name (409): more than one organisation the caller acts for has it, none of them
   * the caller's own (an operator's case).
   */
  shortNameAmbiguous: () =>
    'More than one organisation you act for has this short name, so it does not say whose documents are meant.',
  /** Saving an eDiscovery case (409): the tenant has as many cases as it may keep. */
  caseLimitReached: () =>
    `A tenant keeps at most ${EDISCOVERY_LIMITS.casesPerTenant} eDiscovery cases; delete one before saving another.`,
  /** Putting a case on legal hold (409): the case names no custodian, and a hold covers only named custodians. */
  holdNeedsCustodians: () =>
    'A legal hold needs at least one custodian: save the case with the mailboxes, teams or chat accounts it keeps.',
  /** Placing or releasing a legal hold (403): the caller is not an eDiscovery manager. */
  ediscoveryManagerRequired: () =>
    'Only eDiscovery managers place and release legal holds. Ask an administrator of your organisation for the role.',
  /**
   * Apollo `/register` (400, a validation problem with the error `RegistrationClosed`): the portal does
   * not let people sign up by themselves (PORTAL_SELF_REGISTRATION); accounts are created by an
   * organisation's administrators, its partner or the portal's operator.
   */
  registrationClosed: () =>
    "Sign-up is closed on this portal. Ask your organisation's administrator or the portal's operator for an account.",
  /** Legacy sign-in (403): the password is right, but the account's email address is not confirmed yet. */
  emailNotConfirmed: () => 'The email address has not been confirmed yet.',
  /** Confirming an email address (400): the link's code is older than a day. */
  confirmationLinkExpired: () => 'This confirmation link has expired.',
  /** Confirming an email address (400): the link's code was used, or a newer link or a password reset replaced it. */
  confirmationLinkUsed: () => 'This confirmation link was already used or has been replaced.',
  /** Confirming an email address (400): no such link (a wrong or cut code, another user, another address). */
  confirmationLinkInvalid: () => 'This confirmation link is not valid.',
  /**
   * Finishing an admin consent (400): the answer's state is not one of the caller's consents under
   * way, or it was used already.
   */
  consentStateUnknown: () =>
    'This answer from Microsoft does not belong to a connection you started here, or it was used already. Start the connection again.',
  /** Finishing an admin consent (400): the answer came back more than 10 minutes after the consent started. */
  consentExpired: () => 'The admin consent took longer than 10 minutes. Start the connection again.',
  /** Finishing an admin consent (409): the tenant consented in is already connected to the portal. */
  consentTenantConnected: () =>
    'This Microsoft 365 tenant is already connected to the portal. To consent again for it, use its own “Grant admin consent” link.',
  // Microsoft 365 failures, one code per cause: a Graph-backed call answers 502 with the code and
  // `microsoft365` (the raw details); a connection test carries them as its `failure`.
  /** Microsoft 365: the portal's server cannot resolve the address of Microsoft 365 (DNS). */
  m365HostNotFound: () =>
    "The portal's server cannot find the address of Microsoft 365 (DNS). Correct the server's DNS settings so that it resolves Microsoft 365's addresses, such as login.microsoftonline.com and graph.microsoft.com.",
  /** Microsoft 365: the connection to Microsoft 365 was refused or timed out. */
  m365Unreachable: () =>
    "The portal's server cannot reach Microsoft 365: the connection was refused or timed out. Allow the server outbound HTTPS (port 443) to Microsoft 365's addresses, such as login.microsoftonline.com and graph.microsoft.com, in your firewall or proxy.",
  /** Microsoft 365: the TLS handshake failed (a certificate the server does not trust, or not for that name). */
  m365TlsFailed: () =>
    "The secure connection to Microsoft 365 failed: the portal's server does not trust the certificate it was shown. If a proxy inspects HTTPS, give the server the proxy's root certificate (NODE_EXTRA_CA_CERTS).",
  /** Microsoft 365: Entra ID refused the client secret as wrong (AADSTS7000215). */
  m365SecretWrong: () =>
    "Microsoft Entra ID refused the client secret. Enter the secret's value (not its secret ID) from the app registration's Certificates & secrets in the tenant's settings.",
  /** Microsoft 365: the client secret has expired (AADSTS7000222). */
  m365SecretExpired: () =>
    "The client secret has expired. Create a new client secret in the app registration's Certificates & secrets and enter its value in the tenant's settings.",
  /** Microsoft 365: Entra ID does not know the application (client) ID in the tenant (AADSTS700016). */
  m365ApplicationUnknown: () =>
    "Microsoft Entra ID does not know this application (client) ID in the tenant. Copy the Application (client) ID from the app registration's overview into the tenant's settings.",
  /** Microsoft 365: Entra ID does not know the tenant ID (AADSTS90002). */
  m365TenantUnknown: () =>
    "Microsoft Entra ID does not know this tenant ID. Copy the Directory (tenant) ID from the app registration's overview into the tenant's settings.",
  /** Microsoft 365: no administrator has consented to the app registration's permissions (AADSTS65001, or a token without roles). */
  m365ConsentMissing: () =>
    "No administrator has consented to the app registration's permissions in this tenant. In the app registration's API permissions, choose Grant admin consent.",
  /** Microsoft 365: Graph refused a call whose application permission the app registration lacks (named in `microsoft365`). */
  m365PermissionMissing: () =>
    'The app registration lacks a Microsoft Graph permission this needs. Add the application permission named here under API permissions and grant admin consent.',
  /** Microsoft 365: Graph refused access although the token holds the permissions the area needs. */
  m365AccessDenied: () =>
    "Microsoft 365 refused access although the app registration has the permissions this needs. Check the tenant's access policies for the application, such as an Exchange Online application access policy.",
  /** Microsoft 365: Graph throttled the portal's requests (429; `retryAfter` says how long to wait). */
  m365Throttled: () =>
    "Microsoft 365 is throttling the portal's requests. Wait as long as Microsoft asks, then try again.",
  /** Microsoft 365: Graph or the identity platform failed on Microsoft's side (5xx, 503). */
  m365Outage: () =>
    "Microsoft 365 is not available at the moment (a failure on Microsoft's side). Try again later; the Microsoft 365 admin center's Service health lists known incidents.",
  /** Microsoft 365: Entra ID refused to issue a token for another reason (its AADSTS code in `microsoft365`). */
  m365TokenRefused: () =>
    "Microsoft Entra ID refused to issue a token for the app registration. Look up the AADSTS code in Microsoft's error reference and correct the app registration.",
  /** Microsoft 365: the tenant has no client secret stored. */
  m365SecretMissing: () =>
    "No client secret is stored for this tenant. Enter the app registration's client secret in the tenant's settings.",
  /** Microsoft 365: the stored client secret cannot be opened with the server's PORTAL_SECRET_KEY. */
  m365SecretUnreadable: () =>
    "The stored client secret cannot be opened with the server's current secret key (PORTAL_SECRET_KEY). Enter the client secret again in the tenant's settings.",
  /** Microsoft 365: an answer the portal cannot attribute to a cause (its details in `microsoft365`). */
  m365Failed: () =>
    'Microsoft 365 answered with an error the portal does not recognise. Try again; if it persists, send the details to support.',
  /** Sign-in with the right password or with Microsoft (403): an administrator has deactivated the account. */
  accountDeactivated: () =>
    'This account has been deactivated. Ask an administrator of your organisation to reactivate it.',
  /** Deactivating or deleting a user (409): the user is the caller. */
  ownAccount: () => 'You cannot deactivate or delete your own account.',
  /**
   * Deactivating or deleting a user (409): the user is the organisation's last active administrator, and
   * the organisation would be left without one.
   */
  lastAdministrator: () =>
    "This is the organisation's last active administrator. Invite or reactivate another administrator first.",
  /** Sending an invitation again (409): the user has chosen a password through it already. */
  invitationAccepted: () => 'This user has accepted the invitation already.',
  /** An invitation link (404): unknown, used, expired, or replaced by a newer one. */
  invitationInvalid: () =>
    'This invitation link is not valid any more: it was used, has expired or was replaced by a newer one. Ask your administrator to send it again.',
  /** Sending an invitation again (409): the user is deactivated; reactivating comes first. */
  userDeactivated: () => 'This user is deactivated. Reactivate them first.',
  /** Signing out one session (409): it is the calling one, which signs out with logout. */
  currentSession: () => 'This is the session you are using. Sign out from the account menu instead.',
  /**
   * A test mail (502): the portal's mail server refused the mail or could not be reached; nothing was
   * sent. The operator's SMTP settings need a look, or the address is one the mail server refuses.
   */
  mailNotSent: () =>
    "The mail could not be sent: the portal's mail server refused it or could not be reached. Check the address, or ask the portal's operator to check the mail server.",
} as const satisfies Record<string, (...args: string[]) => string>;

/** A refusal's machine-readable code. */
export type ErrorCode = keyof typeof errorTexts;

/** Is `value` one of the {@link ErrorCode}s? */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(errorTexts, value);
}
