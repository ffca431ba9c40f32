import { randomBytes, randomUUID } from 'node:crypto';
import { actedBy } from '../../audit/audit-by.js';
import type { AppContext } from '../../context.js';
import { hashPassword } from '../../crypto/passwords.js';
import type { Queryable } from '../../db/database.js';
import { routes, session } from '../../http/contract.js';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import { issueOneTimeCode } from '../identity/service.js';
import { findUserByEmail, insertUser, type User } from '../identity/users.js';
import { accessibleOrganisationIds, requireRole, requireWorker } from './access.js';
import {
  createOrganisation,
  findOrganisation,
  findWorkerByOrganisation,
  listOrganisations,
  type Organisation,
} from './repository.js';

export async function clientView(db: Queryable, org: Organisation) {
  const worker = await findWorkerByOrganisation(db, org.id);
  if (!worker) throw notFound('Worker not found');
  return {
    clientId: org.id,
    name: org.name,
    license: org.license,
    partnerId: org.partnerId,
    worker: {
      workerId: worker.workerId,
      workerIp: worker.workerIp,
      indexIp: worker.indexIp,
      clientId: org.id,
      organisationName: org.name,
      abbr: org.abbr,
      stagingtenant_id: worker.stagingtenantId,
      cloud_portal_license: org.license,
    },
    createdAt: org.createdAt.toISOString(),
  };
}

/** The customer organisations (with workers) a user may work as. */
async function customerClients(ctx: AppContext, user: User) {
  const orgs = (await listOrganisations(ctx.db, await accessibleOrganisationIds(ctx.db, user))).filter(
    (o) => o.kind === 'customer',
  );
  return Promise.all(orgs.map((o) => clientView(ctx.db, o)));
}

/** Sends a new user a link to choose a password; the account has a random one until then. */
export async function inviteUser(ctx: AppContext, userId: string, email: string, organisationName: string) {
  const code = await issueOneTimeCode(ctx, userId, 'reset');
  const link = `${ctx.config.publicUrl}/reset-password/${code}`;
  await ctx.mailer.send({
    to: email,
    subject: `Your compliance portal account for ${organisationName}`,
    text: `An account was created for you in the compliance portal (${organisationName}).\n\nChoose your password: ${link}\n\nThe link works once, for 24 hours.`,
    link,
  });
}

export async function createInvitedUser(
  tx: Queryable,
  input: { email: string; displayName: string; role: User['role']; organisationId: string },
): Promise<string> {
  const id = randomUUID();
  await insertUser(tx, {
    id,
    email: input.email,
    displayName: input.displayName,
    passwordHash: await hashPassword(randomBytes(32).toString('base64url')),
    role: input.role,
    organisationId: input.organisationId,
    emailConfirmed: true,
  });
  return id;
}

export function organisationRoutes(ctx: AppContext) {
  return routes({
    'legacy.workers.client': {
      async handler(_args, rc) {
        const { user } = session(rc).auth;
        const org = await findOrganisation(ctx.db, user.organisationId);
        if (!org) throw notFound('Organisation not found');
        return clientView(ctx.db, org);
      },
    },
    'legacy.workers.clients': {
      handler: (_args, rc) => customerClients(ctx, session(rc).auth.user),
    },
    'legacy.workers.clientsByType': {
      async handler({ type }, rc) {
        return (await customerClients(ctx, session(rc).auth.user)).filter((c) => c.license === type);
      },
    },
    'legacy.workers.partnerClients': {
      async handler(_args, rc) {
        const { user } = session(rc).auth;
        requireRole(user, 'partner', 'operator');
        const ids =
          user.role === 'operator'
            ? (await ctx.db.query<{ id: string }>('select id from organisations where partner_id is not null')).map(
                (r) => r.id,
              )
            : (
                await ctx.db.query<{ id: string }>('select id from organisations where partner_id = $1', [
                  user.organisationId,
                ])
              ).map((r) => r.id);
        const orgs = await listOrganisations(ctx.db, ids);
        return Promise.all(orgs.map((o) => clientView(ctx.db, o)));
      },
    },
    'legacy.workers.addPartnerClient': {
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        if (user.role !== 'partner') throw forbidden('Only partners add client organisations.');
        // The name is stored trimmed: it must still meet the contract's minimum length then.
        if (body.name.trim().length < 2) {
          throw badRequest('Invalid request', { 'body/name': ['must NOT have fewer than 2 characters'] });
        }
        if (await findUserByEmail(ctx.db, body.adminEmail)) throw conflict('A user with this email already exists.');
        const taken = await ctx.db.query('select 1 from organisations where abbr = $1', [body.abbr]);
        if (taken.length > 0) throw conflict('This short name is already used by another organisation.');
        const { organisation, adminId } = await ctx.db.transaction(async (tx) => {
          const created = await createOrganisation(tx, {
            name: body.name.trim(),
            kind: 'customer',
            license: body.license,
            partnerId: user.organisationId,
            abbr: body.abbr,
          });
          const id = await createInvitedUser(tx, {
            email: body.adminEmail,
            displayName: body.adminEmail,
            role: 'admin',
            organisationId: created.organisation.id,
          });
          await ctx.audit(
            {
              ...actedBy(user, rc.ip),
              organisationId: created.organisation.id,
              action: 'partner.client.create',
              target: created.organisation.id,
              outcome: 'success',
              details: { name: body.name, license: body.license, adminEmail: body.adminEmail },
            },
            tx,
          );
          return { organisation: created.organisation, adminId: id };
        });
        await inviteUser(ctx, adminId, body.adminEmail, organisation.name);
        return clientView(ctx.db, organisation);
      },
    },
    'legacy.workers.partners': {
      async handler(_args, rc) {
        requireRole(session(rc).auth.user, 'operator');
        const rows = await ctx.db.query<{ id: string; name: string; clients: number }>(
          `select p.id, p.name, (select count(*)::int from organisations c where c.partner_id = p.id) as clients
           from organisations p where p.kind = 'partner' order by p.name`,
        );
        return rows.map((r) => ({ partnerId: r.id, name: r.name, clientCount: Number(r.clients) }));
      },
    },
    'legacy.workers.checks': {
      async handler({ workerIp }, rc) {
        const worker = await requireWorker(ctx, session(rc).auth.user, { workerIp: workerIp });
        const checks: { name: string; ok: boolean; message?: string }[] = [];
        const started = Date.now();
        await ctx.db.query('select 1');
        checks.push({ name: 'database', ok: true, message: `${ctx.db.kind}, answered in ${Date.now() - started} ms` });
        const [tenant] = worker.stagingtenantId
          ? await ctx.db.query<{ client_secret_enc: string | null; provisioning: string }>(
              'select client_secret_enc, provisioning from tenants where tenant_id = $1',
              [worker.stagingtenantId],
            )
          : [];
        checks.push(
          tenant
            ? {
                name: 'tenant',
                ok: tenant.client_secret_enc !== null,
                ...(tenant.client_secret_enc ? {} : { message: 'The tenant has no client secret.' }),
              }
            : { name: 'tenant', ok: false, message: 'No tenant was found in the configuration, please configure one.' },
        );
        checks.push(
          tenant?.provisioning === 'provisioned'
            ? { name: 'provisioning', ok: true }
            : { name: 'provisioning', ok: false, message: `The tenant is ${tenant?.provisioning ?? 'missing'}.` },
        );
        const [locations] = worker.stagingtenantId
          ? await ctx.db.query<{ n: number }>('select count(*)::int as n from locations where tenant_id = $1', [
              worker.stagingtenantId,
            ])
          : [];
        checks.push(
          (locations?.n ?? 0) > 0
            ? { name: 'storage', ok: true }
            : { name: 'storage', ok: false, message: 'No storage location is configured.' },
        );
        return { workerIp: worker.workerIp, online: true, lastSeen: ctx.now().toISOString(), checks };
      },
    },
  });
}
