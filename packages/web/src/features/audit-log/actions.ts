/**
 * The audit log's actions in readable words: each action the server records (a dotted name such as
 * `tenant.create`) has a text in the `auditLog:actions` namespace under its name with `_` for `.`
 * (`auth.email.change` and `auth.email.change.request` are both actions, so they cannot nest).
 * Grouped by area for the action filter; an area with a prefix can be chosen whole.
 */
import type { TFunction } from 'i18next';

type Flat<S extends string> = S extends `${infer Head}.${infer Tail}` ? `${Head}_${Flat<Tail>}` : S;

export const AUDIT_AREAS = [
  {
    area: 'auth',
    prefix: 'auth.',
    actions: [
      'auth.signin',
      'auth.2fa.verify',
      'auth.2fa.setup',
      'auth.2fa.recovery',
      'auth.2fa.change',
      'auth.login',
      'auth.refresh',
      'auth.microsoft',
      'auth.logout',
      'auth.register',
      'auth.password.forgot',
      'auth.password.reset',
      'auth.password.change',
      'auth.email.confirm',
      'auth.email.change.request',
      'auth.email.change',
      'auth.sessions.revoke',
      'auth.sessions.revokeOthers',
    ],
  },
  {
    area: 'user',
    prefix: 'user.',
    actions: [
      'user.create',
      'user.invitation.resend',
      'user.invitation.accept',
      'user.deactivate',
      'user.reactivate',
      'user.delete',
      'user.ediscoveryManager.grant',
      'user.ediscoveryManager.revoke',
    ],
  },
  {
    area: 'tenant',
    prefix: 'tenant.',
    actions: [
      'tenant.create',
      'tenant.update',
      'tenant.delete',
      'tenant.switch',
      'tenant.provision',
      'tenant.deprovision',
      'tenant.connectionTest',
    ],
  },
  { area: 'location', prefix: 'location.', actions: ['location.create', 'location.update', 'location.delete'] },
  {
    area: 'job',
    prefix: 'job.',
    actions: ['job.create', 'job.update', 'job.start', 'job.stop', 'job.retry', 'job.remove'],
  },
  {
    area: 'ediscovery',
    prefix: 'ediscovery.',
    actions: [
      'ediscovery.case.create',
      'ediscovery.case.delete',
      'ediscovery.case.export',
      'ediscovery.case.hold',
      'ediscovery.case.release',
      'ediscovery.preview',
    ],
  },
  {
    area: 'archive',
    prefix: 'archive.',
    actions: ['archive.browse', 'archive.preview', 'archive.download', 'archive.restore'],
  },
  { area: 'document', prefix: 'document.', actions: ['document.upload', 'document.delete'] },
  { area: 'proxyRight', prefix: 'proxyRight.', actions: ['proxyRight.grant', 'proxyRight.revoke'] },
  {
    area: 'organisation',
    prefix: 'organisation.',
    actions: [
      'organisation.signIn.update',
      'organisation.entraTenant.bound',
      'organisation.entraTenant.pendingEnded',
      'organisation.entraTenant.released',
      'organisation.delete',
    ],
  },
  {
    area: 'other',
    prefix: null,
    actions: [
      'users.sync',
      'restore.create',
      'partner.client.create',
      'config.backup.update',
      'support.request',
      'system.seed',
    ],
  },
] as const;

type KnownAction = (typeof AUDIT_AREAS)[number]['actions'][number];

const KNOWN: ReadonlySet<string> = new Set(AUDIT_AREAS.flatMap((a) => a.actions));

const isKnown = (action: string): action is KnownAction => KNOWN.has(action);

/** The action in words; one the portal does not know yet (a newer server's) as it is recorded. */
export function actionText(t: TFunction, action: string): string {
  if (!isKnown(action)) return action;
  return t(`auditLog:actions.${action.replaceAll('.', '_') as Flat<KnownAction>}`);
}

/**
 * Why an entry failed, as the server recorded it (a sign-in's `reason`, apollo's `detail`, a
 * refusal's code), with words for the common ones; any other as recorded.
 */
const REASONS = [
  'failed',
  'lockedOut',
  'notAllowed',
  'deactivated',
  'passwordSignInOff',
  'replayed',
  'Failed',
  'Lockedout',
  'NotAllowed',
  'RequiresTwoFactor',
  'PasswordMismatch',
  'InvalidTwoFactorCode',
  'OldPasswordRequired',
] as const;

type Reason = (typeof REASONS)[number];

const isReason = (value: string): value is Reason => (REASONS as readonly string[]).includes(value);

export function reasonText(t: TFunction, reason: string): string {
  return isReason(reason) ? t(`auditLog:reasons.${reason}`) : reason;
}
