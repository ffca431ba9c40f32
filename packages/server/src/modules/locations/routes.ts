import type { StoreProbe } from '@compliance-portal/sdk';
import type { AppContext } from '../../context.js';
import { type RequestContext, routes, session } from '../../http/contract.js';
import { savedStoreAddress, storeLocationText } from '../../storage/location-stores.js';
import { requireWorker } from '../organisations/access.js';
import { requireTenant } from '../tenants/access.js';
import type { LocationRecord } from './repository.js';
import {
  activeTenantLocations,
  changeLocation,
  createLocation,
  removeLocation,
  requireLocation,
  tenantLocations,
  testLocationStore,
  workerLocations,
} from './service.js';

/**
 * The API view: the store the address selects and, for an object store, where its bytes go (never a
 * credential) and its last test. The server's own store has neither.
 */
type ProbeCode = NonNullable<StoreProbe['code']>;

const view = (l: LocationRecord) => {
  const address = savedStoreAddress(l.siteAddress);
  return {
    locationId: l.locationId,
    name: l.name,
    siteAddress: l.siteAddress,
    store: address.kind,
    ...(address.kind === 'server'
      ? {}
      : {
          storeAddress: storeLocationText(address),
          probe: l.probe
            ? {
                at: l.probe.at.toISOString(),
                ok: l.probe.code === null,
                ...(l.probe.code ? { code: l.probe.code as ProbeCode } : {}),
                ...(l.probe.reason ? { reason: l.probe.reason } : {}),
              }
            : null,
        }),
    ...(l.accessKeyId ? { accessKeyId: l.accessKeyId } : {}),
    hasSecret: l.secretSealed !== null,
    usedByJobs: l.usedByJobs,
    createdAt: l.createdAt.toISOString(),
  };
};

export function locationRoutes(ctx: AppContext) {
  return routes({
    'apollo.locations.list': {
      async handler({ tenantId }, rc) {
        const tenant = await requireTenant(ctx, session(rc).auth.user, tenantId);
        return (await tenantLocations(ctx, tenant)).map(view);
      },
    },
    'apollo.locations.create': {
      async handler({ tenantId, body }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, tenantId);
        return view(await createLocation(ctx, { user, ip: rc.ip }, tenant, body));
      },
    },
    'apollo.locations.get': {
      async handler({ tenantId, locationId }, rc) {
        const tenant = await requireTenant(ctx, session(rc).auth.user, tenantId);
        return view(await requireLocation(ctx.db, tenant, locationId));
      },
    },
    'apollo.locations.update': {
      async handler({ tenantId, locationId, body }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, tenantId);
        return view(await changeLocation(ctx, { user, ip: rc.ip }, tenant, locationId, body));
      },
    },
    'apollo.locations.probe': {
      async handler({ tenantId, locationId }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, tenantId);
        return view(await testLocationStore(ctx, { user, ip: rc.ip }, tenant, locationId));
      },
    },
    'apollo.locations.delete': {
      async handler({ tenantId, locationId }, rc) {
        const { user } = session(rc).auth;
        const tenant = await requireTenant(ctx, user, tenantId);
        await removeLocation(ctx, { user, ip: rc.ip }, tenant, locationId);
        return undefined;
      },
    },
  });
}

export function legacyLocationRoutes(ctx: AppContext) {
  const activeTenant = async (workerIp: string, rc: RequestContext) => {
    const worker = await requireWorker(ctx, session(rc).auth.user, { workerIp });
    return (await activeTenantLocations(ctx, worker)).map(view);
  };
  return routes({
    'legacy.locations.worker': {
      async handler({ workerIp }, rc) {
        const worker = await requireWorker(ctx, session(rc).auth.user, { workerIp });
        return (await workerLocations(ctx, worker)).map(view);
      },
    },
    'legacy.locations.backup': {
      handler: ({ workerIp }, rc) => activeTenant(workerIp, rc),
    },
    'legacy.locations.archive': {
      handler: ({ workerIp }, rc) => activeTenant(workerIp, rc),
    },
  });
}
