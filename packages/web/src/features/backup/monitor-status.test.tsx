import type { JobRun, JobStatus } from '@compliance-portal/sdk';
import { respond } from '@compliance-portal/sdk/testing';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storeUser, storeWorker } from '../../session/storage';
import { testClient, testPage, testWorker } from '../../testing/fixtures';
import { paletteOf } from '../../testing/palette';
import { renderPortal, startMsw } from '../../testing/portal';

startMsw();

const run = (jobName: string, status: JobStatus, itemsFailed = 0): JobRun => ({
  reportId: `r-${jobName}`,
  jobId: `j-${jobName}`,
  jobName,
  jobType: 'backup',
  application: 'onedrive',
  status,
  progress: status === 'finished' || status === 'failed' ? 100 : 0,
  started: status === 'pending' ? null : '2026-11-23T02:00:00.000Z',
  finished: status === 'finished' || status === 'failed' ? '2026-11-23T02:05:00.000Z' : null,
  itemsProcessed: 10,
  itemsFailed,
  bytesProcessed: 100,
});

describe('the job monitor’s statuses', () => {
  it('show each status in words and in its colour: finished green, with warnings amber, running blue, failed red, queued grey', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
    storeWorker(testWorker());
    const expected = [
      [run('Clean', 'finished'), 'Finished', 'green'],
      [run('Guest without mailbox', 'finished', 1), 'Finished with warnings', 'orange'],
      [run('Now', 'running'), 'Running', 'blue'],
      [run('Broken', 'failed'), 'Failed', 'red'],
      // A run not started yet is queued: said so, not "Pending".
      [run('Not started', 'pending'), 'Queued', 'gray'],
    ] as const;
    await renderPortal('/backup-and-restore/job-monitor', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
      'apollo.monitoring.list': respond('apollo.monitoring.list', testPage(expected.map(([r]) => r))),
    });
    for (const [r, text, palette] of expected) {
      const row = (await screen.findByText(r.jobName)).closest('tr');
      if (!row) throw new Error(`no row for ${r.jobName}`);
      const badge = within(row).getByText(text);
      expect(paletteOf(badge), `${r.jobName}: ${text}`).toBe(palette);
    }
  });
});
