import type { StoreProbe } from '@compliance-portal/sdk';
import type { AppContext } from '../../context.js';
import { routes } from '../../http/contract.js';
import { savedStoreAddress, storeLocationText } from '../../storage/location-stores.js';
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
      async handler(_args, { tenant }) {
        return (await tenantLocations(ctx, tenant)).map(view);
      },
    },
    'apollo.locations.create': {
      async handler({ body }, { tenant, actor }) {
        return view(await createLocation(ctx, actor, tenant, body));
      },
    },
    'apollo.locations.get': {
      async handler({ locationId }, { tenant }) {
        return view(await requireLocation(ctx.db, tenant, locationId));
      },
    },
    'apollo.locations.update': {
      async handler({ locationId, body }, { tenant, actor }) {
        return view(await changeLocation(ctx, actor, tenant, locationId, body));
      },
    },
    'apollo.locations.probe': {
      async handler({ locationId }, { tenant, actor }) {
        return view(await testLocationStore(ctx, actor, tenant, locationId));
      },
    },
    'apollo.locations.delete': {
      async handler({ locationId }, { tenant, actor }) {
        await removeLocation(ctx, actor, tenant, locationId);
        return undefined;
      },
    },
  });
}

export function legacyLocationRoutes(ctx: AppContext) {
  return routes({
    'legacy.locations.worker': {
      async handler(_args, { worker }) {
        return (await workerLocations(ctx, worker)).map(view);
      },
    },
    'legacy.locations.backup': {
      handler: async (_args, { worker }) => (await activeTenantLocations(ctx, worker)).map(view),
    },
    'legacy.locations.archive': {
      handler: async (_args, { worker }) => (await activeTenantLocations(ctx, worker)).map(view),
    },
  });
}
