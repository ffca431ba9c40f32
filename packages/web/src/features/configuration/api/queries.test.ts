import type { PortalClient, ProvisioningTask } from '@compliance-portal/sdk';
import { describe, expect, it } from 'vitest';
import { isOfflineQuery } from '../../../shared/api/offline';
import { licenceQuery, portalUsersQuery, provisioningTaskQuery, tenantsQuery } from './queries';

const api = {} as PortalClient;
const task = { taskId: 'k1', tenantId: 't1', kind: 'provision', status: 'running', progress: 0 } as ProvisioningTask;

describe('the configuration’s queries', () => {
  it('keep the tenants and the licence for offline reading, and not a provisioning task or the users', () => {
    expect(tenantsQuery(api).queryKey).toEqual(['tenants']);
    expect(licenceQuery(api, 'c1').queryKey).toEqual(['organisation', 'c1', 'licence']);
    expect(provisioningTaskQuery(api, task).queryKey).toEqual(['provisioning-task', 't1', 'k1']);
    expect(isOfflineQuery({ meta: tenantsQuery(api).meta })).toBe(true);
    expect(isOfflineQuery({ meta: licenceQuery(api, 'c1').meta })).toBe(true);
    expect(isOfflineQuery({ meta: provisioningTaskQuery(api, task).meta })).toBe(false);
    const users = portalUsersQuery(api, 'c1', { page: 1, pageSize: 10, sort: 'displayName' });
    expect(users.queryKey).toEqual([
      'organisation',
      'c1',
      'users',
      { page: 1, pageSize: 10, sort: 'displayName', order: 'asc' },
    ]);
    expect(isOfflineQuery({ meta: users.meta })).toBe(false);
  });
});
