/**
 * Who calls: the portal account a token resolves to, the session it came with, and the caller as
 * services record it. Kept below the modules and src/http, which both need them, so that neither
 * imports the other for a type.
 */

/** A portal user's role: a customer's administrator, a partner, or the platform's operator. */
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

export type TokenKind = 'signin' | 'access' | 'refresh' | 'session';

/** How a session signed in, and when: kept by every token the sign-in leads to, refreshed ones included. */
export interface SignedIn {
  method: 'password' | 'microsoft';
  at: Date;
}

/** The caller of a request, as its token resolved. */
export interface Auth {
  user: User;
  kind: TokenKind;
  tokenHash: string;
  /** Tokens issued together (and by refreshing them) share a family, revoked as one at logout. */
  family: string;
  /** Null for tokens issued before sign-ins were recorded (migration 24). */
  signedIn: SignedIn | null;
}

/** Who acts, as a service checks and audits it: the user and the address the request came from. */
export interface Actor {
  user: User;
  ip: string;
}
