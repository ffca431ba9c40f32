/**
 * Legal hold on a case (archive-data/legal-hold.ts), placed and released by eDiscovery managers only. A
 * hold keeps every item of the case's custodians that the case's search finds, whether or not the
 * person placing it may read them (reading stays governed by access.ts), and those archived later that
 * match; its custodians are frozen when it is placed. A case naming no custodian is not held: an
 * organisation-wide hold must be said by naming who it covers, never by leaving the list empty.
 * Holding a held case and releasing a released one change nothing. Both are audited with the number
 * of items held, as is a refusal for want of the role.
 */
import type { EdiscoveryCase, EdiscoverySearch } from '@compliance-portal/sdk';
import type { Actor } from '../../access/actor.js';
import { placeHold } from '../../archive-data/legal-hold.js';
import { type HoldScope, releaseHold } from '../../archive-data/legal-hold-repository.js';
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import { notFound, refusal } from '../../errors.js';
import type { TenantRecord } from '../tenants/repository.js';
import { findCase, readCase } from './cases.js';
import { hasCustodians } from './custodians.js';
import { parseQuery } from './query.js';
import { type Custodians, lockCase } from './repository.js';

/** Refuses (403, audited as a failure of `action`) who is not an eDiscovery manager. */
async function requireManager(ctx: AppContext, tenant: TenantRecord, actor: Actor, action: string, caseId: string) {
  if (actor.user.ediscoveryManager) return;
  await ctx.audit({
    ...actedBy(actor.user, actor.ip),
    organisationId: tenant.organisationId,
    action,
    target: caseId,
    outcome: 'failure',
    details: { reason: 'not an eDiscovery manager' },
  });
  throw refusal(403, 'ediscoveryManagerRequired');
}

/** The custodians a case's view lists, by kind. */
function custodiansOfCase(found: EdiscoveryCase): Custodians {
  const ids = (kind: EdiscoveryCase['custodians'][number]['kind']) =>
    found.custodians.filter((c) => c.kind === kind).map((c) => c.id);
  return { mailboxes: ids('mailbox'), teams: ids('team'), chats: ids('chats') };
}

/** What a hold keeps: the case's criteria over its custodians, nothing else. */
function holdScope(search: EdiscoverySearch, custodians: Custodians): HoldScope {
  const parsed = parseQuery(search.query);
  const kinds = search.kinds ?? ['mail', 'teams'];
  return {
    // Events are not the archive's items: a held custodian's mailbox keeps all of them whatever the
    // search (archive-data/archive.ts), so the hold counts mail and Teams items only.
    kind: kinds.flatMap((k) =>
      k === 'teams' ? (['teams', 'chat'] as const) : k === 'mail' ? (['mail'] as const) : [],
    ),
    mailSources: custodians.mailboxes,
    teamSources: custodians.teams,
    chatAccounts: custodians.chats,
    ...(parsed.text ? { text: parsed.text } : {}),
    ...(parsed.sender ? { sender: parsed.sender } : {}),
    ...(parsed.recipient ? { recipient: parsed.recipient } : {}),
    ...(parsed.subject ? { subject: parsed.subject } : {}),
    ...(parsed.hasAttachments ? { hasAttachments: true } : {}),
    ...(search.from ? { from: new Date(search.from).toISOString() } : {}),
    ...(search.to ? { to: new Date(search.to).toISOString() } : {}),
  };
}

export async function holdCase(
  ctx: AppContext,
  tenant: TenantRecord,
  actor: Actor,
  caseId: string,
): Promise<EdiscoveryCase> {
  await requireManager(ctx, tenant, actor, 'ediscovery.case.hold', caseId);
  const found = await findCase(ctx, tenant.tenantId, caseId);
  if (found.hold) return found;
  const custodians = custodiansOfCase(found);
  if (!hasCustodians(custodians)) throw refusal(409, 'holdNeedsCustodians');
  const scope = holdScope(found.search, custodians);
  return ctx.db.transaction(async (tx) => {
    const row = await lockCase(tx, tenant.tenantId, caseId);
    if (!row) throw notFound('Case not found');
    // Held meanwhile by another request: that hold stands.
    if (row.held_at) return readCase(tx, tenant.tenantId, caseId);
    const items = await placeHold(tx, {
      tenantId: tenant.tenantId,
      caseId,
      scope,
      heldBy: actor.user.email,
      heldAt: ctx.now(),
    });
    await ctx.audit(
      {
        ...actedBy(actor.user, actor.ip),
        organisationId: tenant.organisationId,
        action: 'ediscovery.case.hold',
        target: caseId,
        outcome: 'success',
        details: {
          name: found.name,
          items,
          mailboxes: custodians.mailboxes.length,
          teams: custodians.teams.length,
          chats: custodians.chats.length,
        },
      },
      tx,
    );
    return readCase(tx, tenant.tenantId, caseId);
  });
}

export async function releaseCase(
  ctx: AppContext,
  tenant: TenantRecord,
  actor: Actor,
  caseId: string,
): Promise<EdiscoveryCase> {
  await requireManager(ctx, tenant, actor, 'ediscovery.case.release', caseId);
  return ctx.db.transaction(async (tx) => {
    // One release at a time: a second finds the case released and audits nothing.
    await lockCase(tx, tenant.tenantId, caseId);
    const found = await readCase(tx, tenant.tenantId, caseId);
    if (!found.hold) return found;
    await releaseHold(tx, tenant.tenantId, caseId);
    await ctx.audit(
      {
        ...actedBy(actor.user, actor.ip),
        organisationId: tenant.organisationId,
        action: 'ediscovery.case.release',
        target: caseId,
        outcome: 'success',
        details: { name: found.name, items: found.hold.items },
      },
      tx,
    );
    return readCase(tx, tenant.tenantId, caseId);
  });
}
