/**
 * Connecting a tenant by admin consent, through the v2.0 admin consent endpoint of Microsoft's
 * identity platform: the portal sends an administrator to `{authority}/{tenant}/v2.0/adminconsent`
 * for an app registration, and finishes with the answer the browser brings back to
 * `{PORTAL_PUBLIC_URL}/configuration/tenant-consent`.
 *
 * The answer is not signed, and Microsoft warns that its `tenant` can be forged: it authorises
 * nothing here. A consent under way is known by the hash of its state (random, 256 bits), belongs to
 * the user who started it, and waits ten minutes in the database (any API process finishes it). A
 * new tenant is connected only once its app registration, with the client secret the administrator
 * typed, gets a token from that tenant: whoever forges an answer naming another tenant gets no
 * token there unless that tenant consented to an app whose secret they hold. The connection test
 * runs at once after.
 */
import { randomBytes } from 'node:crypto';
import type {
  TenantConsentAnswer,
  TenantConsentLink,
  TenantConsentOutcome,
  TenantConsentSetup,
  TenantConsentStart,
} from '@compliance-portal/sdk';
import type { Actor } from '../../access/actor.js';
import { requireOrganisation, requireTenant } from '../../access/scope.js';
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import { sha256 } from '../../crypto/tokens.js';
import type { Queryable } from '../../db/database.js';
import { HttpError, refusal } from '../../errors.js';
import { GraphError } from '../../m365/graph-api.js';
import { missingPermissions } from '../../m365/permissions.js';
import { createTokenSource } from '../../m365/token.js';
import { runConnectionTest } from '../configuration/connection.js';
import { configuredEndpoints } from '../tenants/endpoints.js';
import { findTenant, markAdminConsent, type TenantRecord, tenantView } from '../tenants/repository.js';
import { connectTenant } from '../tenants/service.js';
import { type ConsentRow, insertConsent, purgeConsents, takeConsent } from './repository.js';

/** How long the answer of an admin consent is awaited. */
const CONSENT_LIFETIME_MS = 10 * 60_000;
const MICROSOFT_LOGIN = 'https://login.microsoftonline.com';
/** The static scope: every application permission the app registration asks for. */
const GRAPH_DEFAULT_SCOPE = 'https://graph.microsoft.com/.default';
const GUID = /^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
/** The AADSTS code of an administrator's "Cancel" on the consent page. */
const DECLINED = 65004;

/** The identity platform and Graph that tenants connected by consent are reached at. */
interface ConsentPlatform {
  /** Where the consent links lead: `{authority}/{tenant}/v2.0/adminconsent`. */
  authority: string;
  /** Stored with a tenant connected here; null: Microsoft's own. */
  graphBaseUrl: string | null;
  authorityUrl: string | null;
}

const platforms = new WeakMap<AppContext, ConsentPlatform>();

/** Makes another identity platform the one of `ctx`'s consents (the demo's simulator). */
export function useConsentPlatform(ctx: AppContext, platform: { authority: string; graphBaseUrl: string }): void {
  platforms.set(ctx, { ...platform, authorityUrl: platform.authority });
}

function consentPlatformOf(ctx: AppContext): ConsentPlatform {
  const registered = platforms.get(ctx);
  if (registered) return registered;
  return { authority: ctx.config.m365Cloud.authority, ...configuredEndpoints(ctx.config.m365Cloud) };
}

/** The portal's page the identity platform sends the answer to: the redirect URI app registrations list. */
const redirectUriOf = (ctx: AppContext) => `${ctx.config.publicUrl}/configuration/tenant-consent`;

/** What an administrator prepares an app registration with: the redirect URI and the permissions of every area. */
export function consentSetup(ctx: AppContext): TenantConsentSetup {
  return {
    redirectUri: redirectUriOf(ctx),
    authority: consentPlatformOf(ctx).authority,
    // With nothing granted, every permission the areas need is missing: the whole table.
    permissions: missingPermissions([]),
  };
}

/** Records a consent under way and answers the link that starts it at the identity platform. */
async function begin(
  ctx: AppContext,
  consent: Omit<ConsentRow, 'state_hash' | 'created_at' | 'expires_at'>,
  authority: string,
): Promise<TenantConsentLink> {
  const now = ctx.now();
  await purgeConsents(ctx.db, now);
  const state = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + CONSENT_LIFETIME_MS);
  await insertConsent(ctx.db, { ...consent, state_hash: sha256(state), created_at: now, expires_at: expiresAt });
  const url = new URL(`${authority}/${encodeURIComponent(consent.directory ?? 'organizations')}/v2.0/adminconsent`);
  url.searchParams.set('client_id', consent.application_id);
  url.searchParams.set('scope', GRAPH_DEFAULT_SCOPE);
  url.searchParams.set('redirect_uri', redirectUriOf(ctx));
  url.searchParams.set('state', state);
  return { consentUrl: url.href, expiresAt: expiresAt.toISOString() };
}

/** Starts connecting a new tenant of an organisation the actor acts for, by consent to this app registration. */
export async function startConsent(ctx: AppContext, actor: Actor, input: TenantConsentStart) {
  await requireOrganisation(ctx, actor.user, input.organisationId);
  return begin(
    ctx,
    {
      user_id: actor.user.id,
      organisation_id: input.organisationId,
      tenant_id: null,
      tenant_name: input.tenantName.trim(),
      application_id: input.applicationId.toLowerCase(),
      client_secret_sealed: ctx.secrets.seal(input.clientSecret),
      directory: input.directory?.toLowerCase() ?? null,
    },
    consentPlatformOf(ctx).authority,
  );
}

/** Starts a consent again for a connected tenant's app registration, at that tenant. */
export async function renewConsent(ctx: AppContext, actor: Actor, tenant: TenantRecord) {
  return begin(
    ctx,
    {
      user_id: actor.user.id,
      organisation_id: tenant.organisationId,
      tenant_id: tenant.tenantId,
      tenant_name: null,
      application_id: tenant.applicationId,
      client_secret_sealed: null,
      directory: tenant.tenantId,
    },
    tenant.authorityUrl ?? MICROSOFT_LOGIN,
  );
}

/** An identity platform's refusal as the outcome carries it. */
interface PlatformError {
  error: string;
  errorCode?: number;
  description?: string;
}

/** The first line of an `error_description`, without its trace ids. */
const firstLine = (text: string) => (text.split(/\r?\n| Trace ID:/)[0] ?? '').trim().slice(0, 1000);

/** The answer's own error: `error` with the AADSTS code its description starts with. */
function answerError(answer: TenantConsentAnswer): PlatformError | undefined {
  if (!answer.error) return undefined;
  const code = /^AADSTS(\d+)/.exec(answer.errorDescription ?? '')?.[1];
  return {
    error: answer.error,
    ...(code ? { errorCode: Number(code) } : {}),
    ...(answer.errorDescription ? { description: firstLine(answer.errorDescription) } : {}),
  };
}

const OAUTH_ERROR = /\b(invalid_[a-z_]+|unauthorized_client|access_denied|temporarily_unavailable)\b/;

/**
 * The token endpoint's refusal: as the token source reports it (a GraphError whose code is the
 * answer's `error`, with its AADSTS code and description), else inside MSAL's error text
 * (`invalid_client: Error(s): 7000229 - … - Description: AADSTS7000229: … - Trace ID: …`).
 */
function tokenError(error: unknown): PlatformError {
  if (error instanceof GraphError && (error.details.aadsts || OAUTH_ERROR.test(error.code))) {
    const code = /^AADSTS(\d+)$/.exec(error.details.aadsts ?? '')?.[1];
    const text = error.details.said ?? error.message;
    return {
      error: OAUTH_ERROR.exec(error.code)?.[1] ?? 'tokenRefused',
      ...(code ? { errorCode: Number(code) } : {}),
      description: text
        .replace(/^AADSTS\d+:\s*/, '')
        .trim()
        .slice(0, 1000),
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  const code = /AADSTS(\d+)/.exec(message)?.[1];
  const said = /AADSTS\d+:\s*(.*?)(?:\s+-\s+(?:Trace ID|Correlation ID|Timestamp)|\r?\n|$)/.exec(message)?.[1];
  return {
    error: OAUTH_ERROR.exec(message)?.[1] ?? 'tokenRefused',
    ...(code ? { errorCode: Number(code) } : {}),
    description: (said ?? message).trim().slice(0, 1000),
  };
}

/** The claims of an access token the identity platform just issued (came over TLS from it: read, not verified). */
function tokenClaims(token: string): { tid?: unknown; oid?: unknown } {
  try {
    return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as object;
  } catch {
    return {};
  }
}

/** The consent's audit entry (`tenant.consent`): what ended how, never the secret nor the state. */
function audit(
  ctx: AppContext,
  actor: Actor,
  consent: ConsentRow,
  entry: { outcome: 'success' | 'failure'; tenantId?: string | null; details: Record<string, unknown> },
  tx?: Queryable,
) {
  return ctx.audit(
    {
      ...actedBy(actor.user, actor.ip),
      organisationId: consent.organisation_id,
      action: 'tenant.consent',
      target: entry.tenantId ?? consent.tenant_id,
      outcome: entry.outcome,
      details: { applicationId: consent.application_id, renewal: consent.tenant_id !== null, ...entry.details },
    },
    tx,
  );
}

/** A consent that did not end in a connection: audited, and answered with Microsoft's error. */
async function notGranted(
  ctx: AppContext,
  actor: Actor,
  consent: ConsentRow,
  failure: PlatformError,
  stage: 'consent' | 'token' | 'answer',
  tenantId?: string,
): Promise<TenantConsentOutcome> {
  const outcome = failure.errorCode === DECLINED ? 'declined' : 'failed';
  await audit(ctx, actor, consent, {
    outcome: 'failure',
    tenantId: tenantId ?? null,
    details: {
      outcome,
      stage,
      error: failure.error,
      ...(failure.errorCode ? { errorCode: failure.errorCode } : {}),
    },
  });
  return { outcome, ...failure };
}

/**
 * Finishes a consent with the answer the identity platform sent to the portal's page: only the
 * caller's own consent under way, within its ten minutes, for an organisation they still act for.
 * A refusal or a decline is answered with Microsoft's error; a consent connects the new tenant (or
 * records the renewed one's) and runs the connection test.
 */
export async function finishConsent(
  ctx: AppContext,
  actor: Actor,
  answer: TenantConsentAnswer,
): Promise<TenantConsentOutcome> {
  const consent = await takeConsent(ctx.db, sha256(answer.state), actor.user.id);
  if (!consent) {
    await ctx.audit({
      ...actedBy(actor.user, actor.ip),
      organisationId: actor.user.organisationId,
      action: 'tenant.consent',
      outcome: 'failure',
      details: { reason: 'unknownState' },
    });
    throw refusal(400, 'consentStateUnknown');
  }
  if (new Date(consent.expires_at) < ctx.now()) {
    await audit(ctx, actor, consent, { outcome: 'failure', details: { reason: 'expired' } });
    throw refusal(400, 'consentExpired');
  }
  await requireOrganisation(ctx, actor.user, consent.organisation_id);
  const refused = answerError(answer);
  if (refused) return notGranted(ctx, actor, consent, refused, 'consent');
  const tenantId = answer.tenant?.toLowerCase();
  if (answer.adminConsent?.toLowerCase() !== 'true' || !tenantId || !GUID.test(tenantId)) {
    return notGranted(ctx, actor, consent, { error: 'invalidAnswer' }, 'answer');
  }
  return consent.tenant_id ? renewed(ctx, actor, consent, tenantId) : connected(ctx, actor, consent, tenantId);
}

/** The tenant as stored now: the connection test that follows a consent may have read its default domain. */
const current = async (ctx: AppContext, tenant: TenantRecord) => (await findTenant(ctx.db, tenant.tenantId)) ?? tenant;

/** A connected tenant consented to again: recorded, then tested. */
async function renewed(
  ctx: AppContext,
  actor: Actor,
  consent: ConsentRow,
  answered: string,
): Promise<TenantConsentOutcome> {
  const tenant = await requireTenant(ctx, actor.user, consent.tenant_id ?? '');
  if (answered !== tenant.tenantId.toLowerCase()) {
    return notGranted(ctx, actor, consent, { error: 'otherTenant' }, 'answer', answered);
  }
  const marked = await ctx.db.transaction(async (tx) => {
    const updated = await markAdminConsent(tx, tenant.tenantId, ctx.now(), actor.user.email);
    await audit(ctx, actor, consent, { outcome: 'success', details: { outcome: 'granted' } }, tx);
    return updated;
  });
  const connectionTest = await runConnectionTest(ctx, actor, marked);
  return { outcome: 'granted', tenant: tenantView(await current(ctx, marked)), connectionTest };
}

/**
 * A new tenant: connected once its app registration gets a token from it with the typed secret, its
 * object ID the app's service principal there (the token's `oid`); then tested.
 */
async function connected(
  ctx: AppContext,
  actor: Actor,
  consent: ConsentRow,
  tenantId: string,
): Promise<TenantConsentOutcome> {
  if (await findTenant(ctx.db, tenantId)) {
    await audit(ctx, actor, consent, { outcome: 'failure', tenantId, details: { reason: 'tenantConnected' } });
    throw refusal(409, 'consentTenantConnected');
  }
  let clientSecret: string;
  try {
    clientSecret = ctx.secrets.open(consent.client_secret_sealed ?? '');
  } catch {
    // Sealed under a key rotated away since (secrets:rotate leaves consents of a few minutes be).
    throw refusal(400, 'consentExpired');
  }
  const platform = consentPlatformOf(ctx);
  let claims: { tid?: unknown; oid?: unknown };
  try {
    const token = await createTokenSource({
      directoryId: tenantId,
      clientId: consent.application_id,
      clientSecret,
      authorityHost: platform.authorityUrl ?? MICROSOFT_LOGIN,
    }).token();
    claims = tokenClaims(token);
  } catch (error) {
    return notGranted(ctx, actor, consent, tokenError(error), 'token', tenantId);
  }
  const objectId = typeof claims.oid === 'string' ? claims.oid : '';
  if (String(claims.tid ?? '').toLowerCase() !== tenantId || !GUID.test(objectId)) {
    return notGranted(ctx, actor, consent, { error: 'otherTenant' }, 'token', tenantId);
  }
  let tenant: TenantRecord;
  try {
    tenant = await connectTenant(
      ctx,
      actor,
      {
        tenantName: consent.tenant_name ?? tenantId,
        applicationId: consent.application_id,
        clientSecret,
        tenantId,
        objectId,
        redirectUri: redirectUriOf(ctx),
        organisationId: consent.organisation_id,
      },
      {
        graphBaseUrl: platform.graphBaseUrl,
        authorityUrl: platform.authorityUrl,
        within: (tx) =>
          audit(ctx, actor, consent, { outcome: 'success', tenantId, details: { outcome: 'granted' } }, tx),
      },
    );
  } catch (error) {
    // Connected by someone else since the check above.
    if (error instanceof HttpError && error.status === 409) throw refusal(409, 'consentTenantConnected');
    throw error;
  }
  const connectionTest = await runConnectionTest(ctx, actor, tenant);
  return { outcome: 'granted', tenant: tenantView(await current(ctx, tenant)), connectionTest };
}
