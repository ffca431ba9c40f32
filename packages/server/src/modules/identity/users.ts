type Role = 'admin' | 'partner' | 'operator';

export interface User {
  id: string;
  email: string;
  displayName: string;
  passwordHash: string;
  role: Role;
  organisationId: string;
  emailConfirmed: boolean;
  /** Sealed authenticator key (AES-256-GCM), or null before setup. */
  totpSecret: string | null;
  totpEnabled: boolean;
  totpLastStep: number;
  failedAttempts: number;
  lockoutUntil: Date | null;
  /** The Entra ID account (`oid`) linked at the first sign-in with Microsoft, or null. */
  entraObjectId: string | null;
  /** Places and releases eDiscovery legal holds (granted by the organisation's administrators). */
  ediscoveryManager: boolean;
  /** When an administrator deactivated the account (it cannot sign in), or null. */
  deactivatedAt: Date | null;
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The inner user of the session, as the web app stores it. */
export function sessionUser(user: User) {
  return { email: user.email, role: user.role, organisationId: user.organisationId, displayName: user.displayName };
}
