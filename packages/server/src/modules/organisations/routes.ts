import type { AppContext } from '../../context.js';
import { routes } from '../../http/contract.js';
import {
  addPartnerClient,
  type ClientRecord,
  customerClients,
  ownClient,
  partnerClients,
  partners,
  workerChecks,
} from './service.js';

function clientView({ organisation: org, worker }: ClientRecord) {
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
      ...(worker.tenantDomain ? { tenantDomain: worker.tenantDomain } : {}),
      cloud_portal_license: org.license,
    },
    createdAt: org.createdAt.toISOString(),
  };
}

export function organisationRoutes(ctx: AppContext) {
  return routes({
    'legacy.workers.client': {
      async handler(_args, { actor }) {
        return clientView(await ownClient(ctx, actor.user));
      },
    },
    'legacy.workers.clients': {
      async handler(_args, { actor }) {
        return (await customerClients(ctx, actor.user)).map(clientView);
      },
    },
    'legacy.workers.clientsByType': {
      async handler({ type }, { actor }) {
        return (await customerClients(ctx, actor.user)).map(clientView).filter((c) => c.license === type);
      },
    },
    'legacy.workers.partnerClients': {
      async handler(_args, { actor }) {
        return (await partnerClients(ctx, actor.user)).map(clientView);
      },
    },
    'legacy.workers.addPartnerClient': {
      async handler({ body }, { actor }) {
        return clientView(await addPartnerClient(ctx, actor, body));
      },
    },
    'legacy.workers.partners': {
      async handler(_args, { actor }) {
        return (await partners(ctx, actor.user)).map((p) => ({
          partnerId: p.id,
          name: p.name,
          clientCount: p.clientCount,
        }));
      },
    },
    'legacy.workers.checks': {
      async handler(_args, { worker }) {
        return workerChecks(ctx, worker);
      },
    },
  });
}
