/** The legacy email-archive paths: archived mailboxes, their folders and CSV, archive figures, the worker's state. */
import { chatsOf } from '../../archive-data/archive-repository.js';
import type { AppContext } from '../../context.js';
import { routes, session } from '../../http/contract.js';
import { notFound } from '../../http/errors.js';
import { dataPlaneOf } from '../../jobs/data-plane.js';
import { readableMailboxes } from '../ediscovery/access.js';
import { requireWorker } from '../organisations/access.js';
import { workerTenant } from '../tenants/access.js';
import { archiveStatistics, listMailboxes, mailboxesCsv, mailboxMeta, topMailboxes } from './mailboxes.js';
import { grantRights, listRights, proxyPrincipals, revokeRight } from './proxy-rights.js';
import { downloadArchivedMail, restoreArchivedMail, WORKER_VERSION, workerSetup } from './service.js';
import {
  archiveStructure,
  filterMessages,
  finishedTeamsRestores,
  foundAccounts,
  foundGroups,
  listTeams,
  restorableAccounts,
  teamMembers,
  teamsStatistics,
} from './teams.js';

export function archiveRoutes(ctx: AppContext) {
  const plane = dataPlaneOf(ctx);
  /** The worker at `workerIp` with this archive index, and its tenant. */
  const indexTenant = async (user: Parameters<typeof workerTenant>[1], workerIp: string, indexIp: string) => {
    const worker = await requireWorker(ctx, user, { workerIp });
    if (worker.indexIp !== indexIp) throw notFound('Worker not found');
    return workerTenant(ctx, user, workerIp);
  };

  const graphOf = (tenant: Parameters<typeof plane.graph>[0]) => () => plane.graph(tenant, { interactive: true });

  return routes({
    'legacy.teams.list': {
      async handler({ query }, rc) {
        const tenant = await workerTenant(ctx, session(rc).auth.user, query.workerIp);
        return listTeams(ctx, graphOf(tenant), tenant);
      },
    },
    'legacy.teams.members': {
      async handler({ workerIp, query }, rc) {
        const tenant = await workerTenant(ctx, session(rc).auth.user, workerIp);
        return teamMembers(graphOf(tenant), query.teamId);
      },
    },
    'legacy.teams.foundGroups': {
      async handler({ workerIp }, rc) {
        const tenant = await workerTenant(ctx, session(rc).auth.user, workerIp);
        return foundGroups(graphOf(tenant));
      },
    },
    'legacy.teams.foundAccounts': {
      async handler({ workerIp, type }, rc) {
        const tenant = await workerTenant(ctx, session(rc).auth.user, workerIp);
        return foundAccounts(ctx, graphOf(tenant), tenant, type);
      },
    },
    'legacy.teams.restoreFoundAccounts': {
      async handler({ workerIp, type }, rc) {
        const tenant = await workerTenant(ctx, session(rc).auth.user, workerIp);
        return restorableAccounts(ctx, graphOf(tenant), tenant, type);
      },
    },
    'legacy.teams.archiveStructure': {
      async handler({ query }, rc) {
        const tenant = await workerTenant(ctx, session(rc).auth.user, query.workerIp);
        return archiveStructure(ctx, tenant.tenantId, query.teamId);
      },
    },
    'legacy.teams.filter': {
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        const tenant = await workerTenant(ctx, user, body.workerIp);
        // Chats follow eDiscovery's rule: only those with a member whose mailbox the caller may read.
        const chats = await chatsOf(
          ctx.db,
          tenant.tenantId,
          await readableMailboxes(ctx, graphOf(tenant), tenant, user),
        );
        return filterMessages(ctx, tenant.tenantId, { ...body, chats });
      },
    },
    'legacy.teams.statistics': {
      async handler({ query }, rc) {
        const tenant = await workerTenant(ctx, session(rc).auth.user, query.workerIp);
        return teamsStatistics(ctx, graphOf(tenant), tenant);
      },
    },
    'legacy.teams.finishedRestoreJobs': {
      async handler({ workerIp }, rc) {
        const tenant = await workerTenant(ctx, session(rc).auth.user, workerIp);
        return finishedTeamsRestores(ctx, tenant.tenantId);
      },
    },
    'legacy.proxyRights.accounts': {
      async handler({ query }, rc) {
        const tenant = await workerTenant(ctx, session(rc).auth.user, query.workerIp);
        return proxyPrincipals(ctx, graphOf(tenant), tenant, query.search);
      },
    },
    'legacy.proxyRights.account': {
      async handler({ query }, rc) {
        const tenant = await workerTenant(ctx, session(rc).auth.user, query.workerIp);
        const principal = (await proxyPrincipals(ctx, graphOf(tenant), tenant)).find(
          (p) => p.principalId === query.principalId,
        );
        if (!principal) throw notFound('Account not found');
        return { principal, rights: await listRights(ctx, tenant.tenantId, { principalId: principal.principalId }) };
      },
    },
    'legacy.proxyRights.list': {
      async handler({ query }, rc) {
        const tenant = await workerTenant(ctx, session(rc).auth.user, query.workerIp);
        return listRights(ctx, tenant.tenantId, query.mailboxId ? { mailboxId: query.mailboxId } : {});
      },
    },
    'legacy.proxyRights.grant': {
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        const tenant = await workerTenant(ctx, user, body.workerIp);
        return grantRights(ctx, graphOf(tenant), tenant, { user, ip: rc.ip }, body);
      },
    },
    'legacy.proxyRights.revoke': {
      async handler({ query }, rc) {
        const { user } = session(rc).auth;
        const tenant = await workerTenant(ctx, user, query.workerIp);
        await revokeRight(ctx, tenant, { user, ip: rc.ip }, query.rightId);
        return undefined;
      },
    },
    'legacy.email.restore': {
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        const tenant = await workerTenant(ctx, user, body.workerIp);
        return restoreArchivedMail(ctx, graphOf(tenant), tenant, { user, ip: rc.ip }, body);
      },
    },
    'legacy.email.fullRestoreDownload': {
      async handler({ body }, rc) {
        const { user } = session(rc).auth;
        const tenant = await workerTenant(ctx, user, body.workerIp);
        const file = await downloadArchivedMail(ctx, plane.storeAt, graphOf(tenant), tenant, { user, ip: rc.ip }, body);
        rc.reply
          .type(file.contentType)
          .header(
            'Content-Disposition',
            `attachment; filename="${file.fileName.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
          )
          .header('Content-Length', file.size);
        return file.stream;
      },
    },
    'legacy.mailboxes.list': {
      async handler({ workerIp, indexIp, query }, rc) {
        const tenant = await indexTenant(session(rc).auth.user, workerIp, indexIp);
        return listMailboxes(ctx.db, tenant.tenantId, query ?? {});
      },
    },
    'legacy.mailboxes.top': {
      async handler({ query }, rc) {
        const tenant = await workerTenant(ctx, session(rc).auth.user, query.workerIp);
        return topMailboxes(ctx.db, tenant.tenantId, query.limit ?? 10);
      },
    },
    'legacy.mailboxes.meta': {
      async handler({ query }, rc) {
        const tenant = await workerTenant(ctx, session(rc).auth.user, query.workerIp);
        const meta = await mailboxMeta(ctx.db, tenant.tenantId, query.mailboxId);
        if (!meta) throw notFound('Exchange Backup Job not found.');
        return meta;
      },
    },
    'legacy.mailboxes.downloadCsv': {
      async handler({ workerIp, indexIp }, rc) {
        const tenant = await indexTenant(session(rc).auth.user, workerIp, indexIp);
        const csv = await mailboxesCsv(ctx.db, tenant.tenantId);
        rc.reply.type('text/csv; charset=utf-8').header('Content-Disposition', 'attachment; filename="mailboxes.csv"');
        return csv;
      },
    },
    'legacy.email.statistics': {
      async handler({ query }, rc) {
        const tenant = await workerTenant(ctx, session(rc).auth.user, query.ip);
        return archiveStatistics(ctx.db, tenant.tenantId, ctx.now());
      },
    },
    'legacy.email.workerCheck': {
      async handler({ workerIp }, rc) {
        // This server is the archive worker: answering is being online.
        const worker = await requireWorker(ctx, session(rc).auth.user, { workerIp: workerIp });
        return { workerIp: worker.workerIp, online: true, version: WORKER_VERSION, lastSeen: ctx.now().toISOString() };
      },
    },
    'legacy.email.workerMeta': {
      async handler({ workerId }, rc) {
        const worker = await requireWorker(ctx, session(rc).auth.user, { workerId: workerId });
        return workerSetup(ctx, worker);
      },
    },
  });
}
