// @vitest-environment node
/**
 * Data management end to end, against its own server and the built-in Microsoft 365 simulator: a
 * folder of a demo site chosen in the file manager, its clean-up confirmed and run to the end in the
 * monitor, and the space freed read back from the simulator equal to what Microsoft 365's versions
 * predicted; the overview, the reports list and the data-management screens at every breakpoint.
 */
import { describe, expect, it } from 'vitest';
import {
  CONTOSO_TENANT,
  expectResponsiveAndAccessible,
  runEnded,
  simulatorGraph,
  useBrowserSession,
  waitForText,
} from './browser';

const session = useBrowserSession({ ownServer: true });

type Item = { id: string; name: string; folder?: unknown; file?: unknown };
type Version = { id: string; size: number };

/** The files below a folder with their versions, as Microsoft 365 (the simulator) has them. */
async function filesBelow(graph: Awaited<ReturnType<typeof simulatorGraph>>, driveId: string, folderId: string) {
  const files: { id: string; versions: Version[] }[] = [];
  const walk = async (id: string) => {
    const children = await graph.json<{ value: Item[] }>(`/drives/${driveId}/items/${id}/children?$top=999`);
    for (const child of children.value) {
      if (child.folder) await walk(child.id);
      else {
        const versions = await graph.json<{ value: Version[] }>(`/drives/${driveId}/items/${child.id}/versions`);
        files.push({ id: child.id, versions: versions.value });
      }
    }
  };
  await walk(folderId);
  return files;
}

describe('data management', () => {
  it('cleans up a folder chosen in the file manager, freeing the predicted space', async () => {
    const { page } = session;
    await session.signIn('/compliance');
    const keep = page.getByLabel('Versions to keep');
    await keep.fill('1');
    const sites = page.getByRole('table', { name: 'Sites and OneDrives' });
    const siteButton = sites.getByRole('row').nth(1).getByRole('button');
    const siteName = ((await siteButton.textContent()) ?? '').trim();
    await siteButton.click();
    await page.getByRole('button', { name: 'Documents' }).click();
    const files = page.getByRole('table', { name: 'Files' });
    const folderRow = files.getByRole('row').filter({ hasText: 'Folder' }).first();
    await folderRow.waitFor();
    const folderName = ((await folderRow.getByRole('button').first().textContent()) ?? '').trim();

    // What Microsoft 365 says the folder's files take, and what keeping one version of each frees.
    const graph = await simulatorGraph(session.server.url, CONTOSO_TENANT);
    const found = await graph.json<{ value: { id: string; displayName: string }[] }>('/sites');
    const site = found.value.find((s) => s.displayName === siteName);
    const drives = await graph.json<{ value: { id: string }[] }>(`/sites/${site?.id}/drives`);
    const driveId = drives.value[0]?.id ?? '';
    const top = await graph.json<{ value: Item[] }>(`/drives/${driveId}/items/root/children?$top=999`);
    const folder = top.value.find((i) => i.name === folderName);
    const before = await filesBelow(graph, driveId, folder?.id ?? '');
    const predicted = before.reduce((sum, f) => sum + f.versions.slice(1).reduce((a, v) => a + v.size, 0), 0);
    expect(predicted).toBeGreaterThan(0);

    await folderRow.getByRole('checkbox').check({ force: true });
    await page.getByRole('button', { name: 'Clean up selected' }).click();
    const confirm = page.getByRole('alertdialog');
    const text = (await confirm.getByTestId('cleanup-confirm-text').textContent()) ?? '';
    const versions = before.reduce((sum, f) => sum + Math.max(0, f.versions.length - 1), 0);
    expect(text).toContain(`removes ${versions} old version`);
    expect(text).toContain(`of ${before.length} ${before.length === 1 ? 'file' : 'files'},`);
    await confirm.getByRole('button', { name: 'Remove versions' }).click();
    await page.getByText(/The clean-up ".*" started/).waitFor({ timeout: 60_000 });

    await page.goto('/compliance/monitoring');
    expect(await runEnded(page.getByRole('row', { name: new RegExp(`Clean-up of ${siteName}`) }))).toMatch(
      /^finished(WithWarnings)?$/,
    );
    const after = await filesBelow(graph, driveId, folder?.id ?? '');
    const bytes = (list: typeof before) => list.reduce((sum, f) => sum + f.versions.reduce((a, v) => a + v.size, 0), 0);
    expect(after.every((f) => f.versions.length === 1)).toBe(true);
    expect(bytes(before) - bytes(after)).toBe(predicted);

    // Its report: the site with the versions removed.
    await page.goto('/compliance/reporting');
    await page
      .getByRole('row', { name: new RegExp(`Clean-up of ${siteName}`) })
      .first()
      .click();
    await waitForText(page.getByRole('table', { name: 'Accounts of the run' }), new RegExp(String(versions)));
  });
});

describe('the overview, reports and data-management screens', () => {
  const PAGES = [
    '/',
    '/reports',
    '/compliance',
    '/compliance/dashboard',
    '/compliance/monitoring',
    '/compliance/reporting',
  ];

  it('fit every breakpoint without sideways scrolling and have no WCAG 2.1 A/AA violation', async () => {
    await expectResponsiveAndAccessible(session.page, PAGES);
  });
});
