/** The legacy email-archive paths: archived mailboxes, their folders and CSV, archive figures, the worker's state. */
import { chatsOf } from '../../archive-data/archive-repository.js';
import type { AppContext } from '../../context.js';
import { notFound } from '../../errors.js';
import { routes } from '../../http/contract.js';
import { dataPlaneOf } from '../../jobs/data-plane.js';
import { readableMailboxes } from '../ediscovery/access.js';
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
  const graphOf = (tenant: Parameters<typeof plane.graph>[0]) => () => plane.graph(tenant, { interactive: true });

  return routes({
    'legacy.teams.list': {
      async handler(_args, { tenant }) {
        return listTeams(ctx, graphOf(tenant), tenant);
      },
    },
    'legacy.teams.members': {
      async handler({ query }, { tenant }) {
        return teamMembers(graphOf(tenant), query.teamId);
      },
    },
    'legacy.teams.foundGroups': {
      async handler(_args, { tenant }) {
        return foundGroups(graphOf(tenant));
      },
    },
    'legacy.teams.foundAccounts': {
      async handler({ type }, { tenant }) {
        return foundAccounts(ctx, graphOf(tenant), tenant, type);
      },
    },
    'legacy.teams.restoreFoundAccounts': {
      async handler({ type }, { tenant }) {
        return restorableAccounts(ctx, graphOf(tenant), tenant, type);
      },
    },
    'legacy.teams.archiveStructure': {
      async handler({ query }, { tenant }) {
        return archiveStructure(ctx, tenant.tenantId, query.teamId);
      },
    },
    'legacy.teams.filter': {
      async handler({ body }, { tenant, actor }) {
        // Chats follow eDiscovery's rule: only those with a member whose mailbox the caller may read.
        const chats = await chatsOf(
          ctx.db,
          tenant.tenantId,
          await readableMailboxes(ctx, graphOf(tenant), tenant, actor.user),
        );
        return filterMessages(ctx, tenant.tenantId, { ...body, chats });
      },
    },
    'legacy.teams.statistics': {
      async handler(_args, { tenant }) {
        return teamsStatistics(ctx, graphOf(tenant), tenant);
      },
    },
    'legacy.teams.finishedRestoreJobs': {
      async handler(_args, { tenant }) {
        return finishedTeamsRestores(ctx, tenant.tenantId);
      },
    },
    'legacy.proxyRights.accounts': {
      async handler({ query }, { tenant }) {
        return proxyPrincipals(ctx, graphOf(tenant), tenant, query.search);
      },
    },
    'legacy.proxyRights.account': {
      async handler({ query }, { tenant }) {
        const principal = (await proxyPrincipals(ctx, graphOf(tenant), tenant)).find(
          (p) => p.principalId === query.principalId,
        );
        if (!principal) throw notFound('Account not found');
        return { principal, rights: await listRights(ctx, tenant.tenantId, { principalId: principal.principalId }) };
      },
    },
    'legacy.proxyRights.list': {
      async handler({ query }, { tenant }) {
        return listRights(ctx, tenant.tenantId, query.mailboxId ? { mailboxId: query.mailboxId } : {});
      },
    },
    'legacy.proxyRights.grant': {
      async handler({ body }, { tenant, actor }) {
        return grantRights(ctx, graphOf(tenant), tenant, actor, body);
      },
    },
    'legacy.proxyRights.revoke': {
      async handler({ query }, { tenant, actor }) {
        await revokeRight(ctx, tenant, actor, query.rightId);
        return undefined;
      },
    },
    'legacy.email.restore': {
      async handler({ body }, { tenant, actor }) {
        return restoreArchivedMail(ctx, graphOf(tenant), tenant, actor, body);
      },
    },
    'legacy.email.fullRestoreDownload': {
      async handler({ body }, { tenant, actor, reply }) {
        const file = await downloadArchivedMail(ctx, plane.storeAt, graphOf(tenant), tenant, actor, body);
        reply
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
      async handler({ query }, { tenant }) {
        return listMailboxes(ctx.db, tenant.tenantId, query ?? {});
      },
    },
    'legacy.mailboxes.top': {
      async handler({ query }, { tenant }) {
        return topMailboxes(ctx.db, tenant.tenantId, query.limit ?? 10);
      },
    },
    'legacy.mailboxes.meta': {
      async handler({ query }, { tenant }) {
        const meta = await mailboxMeta(ctx.db, tenant.tenantId, query.mailboxId);
        if (!meta) throw notFound('Exchange Backup Job not found.');
        return meta;
      },
    },
    'legacy.mailboxes.downloadCsv': {
      async handler(_args, { tenant, reply }) {
        const csv = await mailboxesCsv(ctx.db, tenant.tenantId);
        reply.type('text/csv; charset=utf-8').header('Content-Disposition', 'attachment; filename="mailboxes.csv"');
        return csv;
      },
    },
    'legacy.email.statistics': {
      async handler(_args, { tenant }) {
        return archiveStatistics(ctx.db, tenant.tenantId, ctx.now());
      },
    },
    'legacy.email.workerCheck': {
      async handler(_args, { worker }) {
        // This server is the archive worker: answering is being online.
        return { workerIp: worker.workerIp, online: true, version: WORKER_VERSION, lastSeen: ctx.now().toISOString() };
      },
    },
    'legacy.email.workerMeta': {
      async handler(_args, { worker }) {
        return workerSetup(ctx, worker);
      },
    },
  });
}
