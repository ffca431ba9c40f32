import type { Worker } from '@compliance-portal/sdk';

/** The customer worker of the tests (Contoso), with whatever a test changes. */
export function testWorker(overrides: Partial<Worker> = {}): Worker {
  return {
    workerId: 'w1',
    workerIp: '10.64.0.2',
    indexIp: '10.65.0.2',
    clientId: 'c1',
    organisationName: 'Contoso',
    abbr: 'contoso',
    stagingtenant_id: 't1',
    cloud_portal_license: 'full',
    ...overrides,
  };
}

/** The legacy `/client` answer for the test worker's organisation (full licence). */
export function testClient() {
  return {
    clientId: 'c1',
    name: 'Contoso',
    license: 'full' as const,
    partnerId: null,
    worker: { ...testWorker(), cloud_portal_license: 'FULL' as 'full' },
    createdAt: '2026-01-01T00:00:00.000Z',
  };
}
