import { respond } from '@compliance-portal/sdk/testing';
import { screen, waitFor } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { storeUser, storeWorker } from '../../session/storage';
import { testClient, testPage, testWorker } from '../../testing/fixtures';
import { renderPortal, startMsw } from '../../testing/portal';

startMsw();

describe('the reports of every area in the address', () => {
  it('opens on the area, type, status and page of its address; another area clears the type', async () => {
    storeUser({ token: 'session-token', user: { email: 'admin@example.com', role: 'admin' } });
    storeWorker(testWorker());
    const queries: Record<string, string>[] = [];
    const { portal, user } = await renderPortal('/reports?area=backup&type=restore&status=failed&page=3', {
      'legacy.workers.client': respond('legacy.workers.client', testClient()),
      'apollo.reporting.list': ({ request }) => {
        queries.push(Object.fromEntries(new URL(request.url).searchParams.entries()));
        return HttpResponse.json(testPage([], 80, { page: 3 }));
      },
    });
    expect(await screen.findByText('No reports match.')).toBeTruthy();
    expect(queries[0]).toMatchObject({ type: 'restore', status: 'failed', page: '3' });
    const value = (name: string) => (screen.getByRole('combobox', { name }) as HTMLSelectElement).value;
    expect([value('Area'), value('Type'), value('Status')]).toEqual(['backup', 'restore', 'failed']);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Area' }), 'emailArchive');
    await waitFor(() =>
      expect(portal.router.state.location.search).toEqual({ area: 'emailArchive', status: 'failed' }),
    );
    await waitFor(() => expect(queries.at(-1)).toMatchObject({ status: 'failed', page: '1' }));
    const last = queries.at(-1);
    expect(last?.type).toBeUndefined();
    expect(value('Type')).toBe('');
  });
});
