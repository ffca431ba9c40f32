import type { AppContext } from '../../context.js';
import { routes, session } from '../../http/contract.js';
import { requireWorker } from './access.js';
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
      async handler(_args, rc) {
        return clientView(await ownClient(ctx, session(rc).auth.user));
      },
    },
    'legacy.workers.clients': {
      async handler(_args, rc) {
        return (await customerClients(ctx, session(rc).auth.user)).map(clientView);
      },
    },
    'legacy.workers.clientsByType': {
      async handler({ type }, rc) {
        return (await customerClients(ctx, session(rc).auth.user)).map(clientView).filter((c) => c.license === type);
      },
    },
    'legacy.workers.partnerClients': {
      async handler(_args, rc) {
        return (await partnerClients(ctx, session(rc).auth.user)).map(clientView);
      },
    },
    'legacy.workers.addPartnerClient': {
      async handler({ body }, rc) {
        return clientView(await addPartnerClient(ctx, { user: session(rc).auth.user, ip: rc.ip }, body));
      },
    },
    'legacy.workers.partners': {
      async handler(_args, rc) {
        return (await partners(ctx, session(rc).auth.user)).map((p) => ({
          partnerId: p.id,
          name: p.name,
          clientCount: p.clientCount,
        }));
      },
    },
    'legacy.workers.checks': {
      async handler({ workerIp }, rc) {
        return workerChecks(ctx, await requireWorker(ctx, session(rc).auth.user, { workerIp }));
      },
    },
  });
}
