/**
 * Which Entra tenant an organisation signs in with, and whether it has proved that it controls it.
 * A tenant id an organisation sets waits as pending for 7 days; several organisations may have the
 * same one pending, so setting an id claims nothing. It becomes bound (unique: migration 23's index)
 * when a member of the organisation completes a sign-in with Microsoft from it (entra.ts), or when the
 * operator binds it (`entra:reassign`); binding it ends every other organisation's pending claim.
 * The SQL of these states; the rules that change them are in entra.ts and sign-in-settings.ts.
 */
import type { Queryable } from '../../db/database.js';

/** How long a set tenant id waits for the sign-in that proves it. */
const PENDING_TENANT_MS = 7 * 24 * 3600_000;

/** A proved binding: since when, by whose sign-in (their address) or by the operator. */
export interface BoundTenant {
  tenantId: string;
  at: Date;
  by: string | null;
  proof: 'microsoftSignIn' | 'operator';
}

/** A tenant id set and waiting for its proof until `expiresAt` (not used after it). */
export interface PendingTenant {
  tenantId: string;
  since: Date;
  expiresAt: Date;
  setBy: string | null;
}

/** How an organisation signs in. An organisation has a bound tenant or a pending one, never both. */
export interface SignInState {
  organisationId: string;
  organisationName: string;
  microsoft: boolean;
  password: boolean;
  bound: BoundTenant | null;
  pending: PendingTenant | null;
}

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

export const isPendingLive = (pending: PendingTenant | null, now: Date): pending is PendingTenant =>
  pending !== null && pending.expiresAt.getTime() > now.getTime();

/** Where a pending tenant stands: still waiting for its proof, or past its 7 days. */
export const pendingStateOf = (pending: PendingTenant, now: Date): 'pending' | 'expired' =>
  isPendingLive(pending, now) ? 'pending' : 'expired';

/** The tenant a sign-in with Microsoft goes to: the bound one, else a pending one not expired; null when off. */
export function signInTenantOf(state: SignInState | undefined, now: Date): string | null {
  if (!state?.microsoft) return null;
  if (state.bound) return state.bound.tenantId;
  return isPendingLive(state.pending, now) ? state.pending.tenantId : null;
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
