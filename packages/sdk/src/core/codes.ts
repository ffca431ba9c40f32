/**
 * The refusals clients act on: a machine-readable code each (apollo problem details carry it as the
 * `code` member, legacy errors as a `code` field) and the fixed text the server sends with it. The
 * server builds its refusals from here, and clients decide by `code`, never by text.
 */
import { TRIAL_LIMITS } from '../limits.js';

export const errorTexts = {
  /** Legacy sign-in: unknown address or wrong password. */
  invalidCredentials: () => 'Invalid credentials.',
  /** Legacy sign-in: too many failures; the account waits. */
  accountLocked: () => 'The account is locked for 5 minutes after too many failed attempts.',
  userDoesNotExist: () => 'User does not exist!',
  invalidVerificationCode: () => 'Invalid verification code.',
  /** Legacy second factor refused for good (locked out while verifying). */
  loginVerificationFailed: () => 'Login verification failed!',
  trialBackupJobs: (application: string) =>
    `Your trial licence allows one backup job per application; ${application} already has one.`,
  trialSources: () =>
    `Your trial licence allows at most ${TRIAL_LIMITS.sourcesPerBackup} accounts, sites or teams per backup.`,
  trialRestores: (application: string) =>
    `Your trial licence allows at most ${TRIAL_LIMITS.restoresPerApplication} restores per application; ${application} has reached it.`,
  trialNoDelete: () => 'Backup jobs cannot be deleted on a trial licence.',
} as const satisfies Record<string, (...args: string[]) => string>;

/** A refusal's machine-readable code. */
export type ErrorCode = keyof typeof errorTexts;

/** Is `value` one of the {@link ErrorCode}s? */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(errorTexts, value);
}
