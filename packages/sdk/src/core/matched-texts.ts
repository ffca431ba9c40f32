/**
 * The refusal texts that clients also recognise by their words, for answers without a `code` (servers
 * that predate codes): the legacy sign-in's and second factor's, and the trial licence's, known by how
 * they begin. A module of their own, so that recognising them does not bundle every refusal's text
 * ({@link errorTexts} spreads them in).
 */
import { TRIAL_LIMITS } from '../limits.js';

export const matchedTexts = {
  /** Legacy sign-in: unknown address or wrong password. */
  invalidCredentials: () => 'Invalid credentials.',
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
} as const satisfies Record<string, (...args: string[]) => string>;
