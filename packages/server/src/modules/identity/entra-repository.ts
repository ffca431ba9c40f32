/**
 * The SQL of signing in with Microsoft: the organisations' Entra tenants (bound or pending) and sign-in
 * methods, the started sign-ins (`entra_sign_ins`), and the users' links to Entra accounts.
 */
import type { Queryable } from '../../db/database.js';
import { type BoundTenant, PENDING_TENANT_MS, type SignInState } from './entra-tenants.js';

interface StateRow {
  id: string;
  name: string;
  entra_sign_in: boolean;
  password_sign_in: boolean;
  entra_tenant_id: string | null;
  bound_at: Date;
  entra_tenant_bound_by: string | null;
  entra_tenant_proof: BoundTenant['proof'] | null;
  entra_pending_tenant_id: string | null;
  entra_pending_since: Date | null;
  entra_pending_expires_at: Date | null;
  entra_pending_set_by: string | null;
}

const STATE_COLUMNS = `id, name, entra_sign_in, password_sign_in, entra_tenant_id,
  coalesce(entra_tenant_bound_at, created_at) as bound_at, entra_tenant_bound_by, entra_tenant_proof,
  entra_pending_tenant_id, entra_pending_since, entra_pending_expires_at, entra_pending_set_by`;

function toState(row: StateRow): SignInState {
  return {
    organisationId: row.id,
    organisationName: row.name,
    microsoft: row.entra_sign_in,
    password: row.password_sign_in,
    bound: row.entra_tenant_id
      ? {
          tenantId: row.entra_tenant_id,
          at: new Date(row.bound_at),
          by: row.entra_tenant_bound_by,
          proof: row.entra_tenant_proof ?? 'operator',
        }
      : null,
    pending:
      row.entra_pending_tenant_id && row.entra_pending_since && row.entra_pending_expires_at
        ? {
            tenantId: row.entra_pending_tenant_id,
            since: new Date(row.entra_pending_since),
            expiresAt: new Date(row.entra_pending_expires_at),
            setBy: row.entra_pending_set_by,
          }
        : null,
  };
}

/** The organisation's sign-in state; `lock` holds its row to the end of the transaction. */
export async function readSignInState(
  db: Queryable,
  organisationId: string,
  { lock = false } = {},
): Promise<SignInState | undefined> {
  const [row] = await db.query<StateRow>(
    `select ${STATE_COLUMNS} from organisations where id = $1${lock ? ' for update' : ''}`,
    [organisationId],
  );
  return row ? toState(row) : undefined;
}

/** The organisation that has `tenantId` bound, if any but `except`. */
export async function holderOf(db: Queryable, tenantId: string, except?: string): Promise<SignInState | undefined> {
  const [row] = await db.query<StateRow>(
    `select ${STATE_COLUMNS} from organisations where entra_tenant_id = $1 and ($2::text is null or id <> $2)`,
    [tenantId, except ?? null],
  );
  return row ? toState(row) : undefined;
}

/** Sets the organisation's tenant as pending from `now`, replacing whatever it had. */
export async function setPendingTenant(
  tx: Queryable,
  organisationId: string,
  tenantId: string,
  now: Date,
  setBy: string,
): Promise<void> {
  await tx.query(
    `update organisations set entra_tenant_id = null, entra_tenant_bound_at = null, entra_tenant_bound_by = null,
       entra_tenant_proof = null, entra_pending_tenant_id = $2, entra_pending_since = $3,
       entra_pending_expires_at = $4, entra_pending_set_by = $5
     where id = $1`,
    [organisationId, tenantId, now, new Date(now.getTime() + PENDING_TENANT_MS), setBy],
  );
}

/**
 * Takes the organisation's tenant away, bound or pending. When a bound one goes, its members' links to
 * that directory's accounts go with it; answers how many members were linked.
 */
export async function clearTenant(tx: Queryable, organisationId: string): Promise<number> {
  await tx.query(
    `update organisations set entra_tenant_id = null, entra_tenant_bound_at = null, entra_tenant_bound_by = null,
       entra_tenant_proof = null, entra_pending_tenant_id = null, entra_pending_since = null,
       entra_pending_expires_at = null, entra_pending_set_by = null
     where id = $1`,
    [organisationId],
  );
  return unlinkMembers(tx, organisationId);
}

/** Ends the links of the organisation's members to Entra accounts (a new directory has other accounts). */
export async function unlinkMembers(tx: Queryable, organisationId: string): Promise<number> {
  const rows = await tx.query(
    'update users set entra_object_id = null where organisation_id = $1 and entra_object_id is not null returning id',
    [organisationId],
  );
  return rows.length;
}

/**
 * Binds `tenantId` to the organisation as proved, and ends the pending claims of it everywhere;
 * answers the organisations whose claim ended. The unique index refuses it when another organisation
 * has the tenant bound (SQLSTATE 23505).
 */
export async function bindTenant(
  tx: Queryable,
  organisationId: string,
  tenantId: string,
  proof: { at: Date; by: string | null; proof: BoundTenant['proof'] },
): Promise<string[]> {
  await tx.query(
    `update organisations set entra_tenant_id = $2, entra_tenant_bound_at = $3, entra_tenant_bound_by = $4,
       entra_tenant_proof = $5, entra_pending_tenant_id = null, entra_pending_since = null,
       entra_pending_expires_at = null, entra_pending_set_by = null
     where id = $1`,
    [organisationId, tenantId, proof.at, proof.by, proof.proof],
  );
  const ended = await tx.query<{ id: string }>(
    `update organisations set entra_pending_tenant_id = null, entra_pending_since = null,
       entra_pending_expires_at = null, entra_pending_set_by = null
     where entra_pending_tenant_id = $1 and id <> $2 returning id`,
    [tenantId, organisationId],
  );
  return ended.map((row) => row.id);
}

/** Sets whether the organisation signs in with Microsoft and with passwords. */
export async function setSignInMethods(
  tx: Queryable,
  organisationId: string,
  methods: { microsoft: boolean; password: boolean },
): Promise<void> {
  await tx.query('update organisations set entra_sign_in = $2, password_sign_in = $3 where id = $1', [
    organisationId,
    methods.microsoft,
    methods.password,
  ]);
}

/** The addresses of the organisation's administrators (admin and partner users with a confirmed address). */
export async function administratorAddresses(db: Queryable, organisationId: string): Promise<string[]> {
  const rows = await db.query<{ email: string }>(
    `select email from users where organisation_id = $1 and role in ('admin', 'partner') and email_confirmed
     order by email`,
    [organisationId],
  );
  return rows.map((row) => row.email);
}

/** A started sign-in, kept until its answer comes back: the tenant asked, the sealed PKCE verifier, the nonce. */
export interface StartedSignIn {
  organisationId: string;
  tenantId: string;
  codeVerifierSealed: string;
  nonce: string;
  expiresAt: Date;
}

/** Forgets the started sign-ins that expired before `before`. */
export async function forgetEntraSignIns(db: Queryable, before: Date): Promise<void> {
  await db.query('delete from entra_sign_ins where expires_at < $1', [before]);
}

export async function insertEntraSignIn(
  db: Queryable,
  stateHash: string,
  signIn: StartedSignIn & { createdAt: Date },
): Promise<void> {
  await db.query(
    `insert into entra_sign_ins (state_hash, organisation_id, tenant_id, code_verifier_sealed, nonce, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [
      stateHash,
      signIn.organisationId,
      signIn.tenantId,
      signIn.codeVerifierSealed,
      signIn.nonce,
      signIn.createdAt,
      signIn.expiresAt,
    ],
  );
}

/** Takes a started sign-in once: a second use of the same state (a replayed callback) finds it used. */
export async function takeEntraSignIn(db: Queryable, stateHash: string, now: Date): Promise<StartedSignIn | undefined> {
  const [row] = await db.query<{
    organisation_id: string;
    tenant_id: string;
    code_verifier_sealed: string;
    nonce: string;
    expires_at: Date;
  }>(
    `update entra_sign_ins set used_at = $2 where state_hash = $1 and used_at is null
     returning organisation_id, tenant_id, code_verifier_sealed, nonce, expires_at, used_at`,
    [stateHash, now],
  );
  return row
    ? {
        organisationId: row.organisation_id,
        tenantId: row.tenant_id,
        codeVerifierSealed: row.code_verifier_sealed,
        nonce: row.nonce,
        expiresAt: new Date(row.expires_at),
      }
    : undefined;
}

/** Links the user to an Entra account unless it is linked already; false when it was. */
export async function linkEntraAccount(tx: Queryable, userId: string, objectId: string): Promise<boolean> {
  const [linked] = await tx.query(
    'update users set entra_object_id = $2 where id = $1 and entra_object_id is null returning 1',
    [userId, objectId],
  );
  return linked !== undefined;
}
