/**
 * The refusals clients act on: a machine-readable code each (apollo problem details carry it as the
 * `code` member, legacy errors as a `code` field) and the fixed text the server sends with it. The
 * server builds its refusals from here, and clients decide by `code`, never by text.
 */
import { TRIAL_LIMITS } from '../limits.js';

/**
 * The text the server sends with each refusal {@link ErrorCode}, built from the refusal's argument (the
 * application, for two of the trial limits). For test servers and for matching answers that carry no
 * `code`; decide by `code`, never by this text.
 */
export const errorTexts = {
  /** Legacy sign-in: unknown address or wrong password. */
  invalidCredentials: () => 'Invalid credentials.',
  /** Legacy sign-in: too many failures; the account waits. */
  accountLocked: () => 'The account is locked for 5 minutes after too many failed attempts.',
  /** Legacy `/auth/verify-user` (404): the user of the session no longer exists. */
  userDoesNotExist: () => 'User does not exist!',
  /** Legacy two-factor setup or sign-in (400): the authenticator code or the recovery code is wrong. */
  invalidVerificationCode: () => 'Invalid verification code.',
  /** Legacy second factor refused for good (locked out while verifying). */
  loginVerificationFailed: () => 'Login verification failed!',
  /**
   * Creating or changing a job (403): a trial licence allows one backup job per application, and the
   * named application already has one.
   */
  trialBackupJobs: (application: string) =>
    `Your trial licence allows one backup job per application; ${application} already has one.`,
  /**
   * Creating or changing a job (403): a backup on a trial licence covers more than 10 accounts, sites
   * or teams.
   */
  trialSources: () =>
    `Your trial licence allows at most ${TRIAL_LIMITS.sourcesPerBackup} accounts, sites or teams per backup.`,
  /** Creating a job (403): the named application has had its 10 restores of a trial licence. */
  trialRestores: (application: string) =>
    `Your trial licence allows at most ${TRIAL_LIMITS.restoresPerApplication} restores per application; ${application} has reached it.`,
  /** Removing a job (403): backup jobs cannot be deleted on a trial licence. */
  trialNoDelete: () => 'Backup jobs cannot be deleted on a trial licence.',
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
} as const satisfies Record<string, (...args: string[]) => string>;

/** A refusal's machine-readable code. */
export type ErrorCode = keyof typeof errorTexts;

/** Is `value` one of the {@link ErrorCode}s? */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(errorTexts, value);
}
