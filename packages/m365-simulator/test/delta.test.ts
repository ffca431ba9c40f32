/**
 * Delta tokens as Graph treats them: a token the simulator did not issue for that resource, or one
 * older than the tenant's retention (its delta horizon), answers 410 with Graph's codes and where to
 * start again; `token=latest` gives only a link. The function's call form with parentheses, which the
 * Kiota-based SDKs send (`messages/delta()`, `items/root/delta()`, `delta(token='…')`), is the same.
 */
import { describe, expect, it } from 'vitest';
import { evolve, expireDeltaTokens } from '../src/model.js';
import { graphOver } from './graph-walk.js';

type Page = { value: { id: string }[]; '@odata.nextLink'?: string; '@odata.deltaLink'?: string };

describe('delta tokens', () => {
  const graph = graphOver({ users: 2, filesPerDrive: 8 }, 4);
  const { tenant, get } = graph;
  const user = tenant.users[0];
  const other = tenant.users[1];
  if (!user || !other) throw new Error('no user');
  const driveDelta = `/drives/${user.driveId}/root/delta`;
  const mailDelta = `/users/${user.id}/mailFolders/inbox/messages/delta`;

  /** Reads a delta round to its end: the items and the delta link. */
  async function round(url: string) {
    const items: string[] = [];
    let next: string | undefined = url;
    let deltaLink = '';
    while (next) {
      const answer = await get(next);
      expect(answer.status).toBe(200);
      const body = answer.body as Page;
      items.push(...body.value.map((i) => i.id));
      next = body['@odata.nextLink'];
      deltaLink = body['@odata.deltaLink'] ?? deltaLink;
    }
    return { items, deltaLink };
  }

  it('gives only the changes after a delta link, in Graph’s link forms', async () => {
    const drive = await round(driveDelta);
    expect(drive.deltaLink).toMatch(/\/root\/delta\?token=/);
    const mail = await round(mailDelta);
    expect(mail.deltaLink).toMatch(/\/messages\/delta\?\$deltatoken=/);
    expect((await round(drive.deltaLink)).items).toEqual([]);
    evolve(tenant, { newFiles: 2, newMessages: 2 });
    expect((await round(drive.deltaLink)).items.length).toBeGreaterThan(0);
    expect((await round(mail.deltaLink)).items.length).toBeGreaterThan(0);
  });

  it('answers 410 resyncRequired for a drive token it did not issue, or issued for another drive', async () => {
    const foreign = (await round(`/drives/${other.driveId}/root/delta`)).deltaLink;
    const token = new URL(foreign).searchParams.get('token') ?? '';
    for (const url of [`${driveDelta}?token=not-a-token`, `${driveDelta}?token=${encodeURIComponent(token)}`]) {
      const answer = await get(url);
      expect(answer.status).toBe(410);
      expect(answer.body.error).toMatchObject({
        code: 'resyncRequired',
        message: expect.stringMatching(/^Resync required/),
        innerError: { code: 'resyncChangesApplyDifferences' },
      });
      expect(answer.headers?.location).toMatch(/\/root\/delta$/);
    }
    // A token altered by hand is not one the simulator issued.
    const { deltaLink } = await round(driveDelta);
    const altered = new URL(deltaLink);
    const [payload, mac] = (altered.searchParams.get('token') ?? '').split('.');
    const state = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
    state.a = -1;
    altered.searchParams.set('token', `${Buffer.from(JSON.stringify(state)).toString('base64url')}.${mac}`);
    expect((await get(altered.toString())).status).toBe(410);
  });

  it('answers 410 once the tenant’s retention passed the token, for drives and mail, and starts again', async () => {
    const drive = await round(driveDelta);
    const mail = await round(mailDelta);
    const midway = (await get(`${driveDelta}?$top=1`)).body['@odata.nextLink'] as string;
    expireDeltaTokens(tenant);
    expect(tenant.deltaHorizon).toBe(tenant.clock);
    const gone = await get(drive.deltaLink);
    expect(gone.status).toBe(410);
    expect(gone.body.error).toMatchObject({ code: 'resyncRequired' });
    expect((await get(midway)).status).toBe(410);
    const expired = await get(mail.deltaLink);
    expect(expired.status).toBe(410);
    expect(expired.body.error).toMatchObject({ code: 'syncStateNotFound' });
    const invalid = await get(`${mailDelta}?$deltatoken=garbage`);
    expect(invalid.status).toBe(410);
    expect(invalid.body.error).toMatchObject({ code: 'syncStateInvalid' });
    // Starting again from the Location works, and its links are good.
    const again = await round(gone.headers?.location ?? '');
    expect(again.items.length).toBe(tenant.drives.get(user.driveId)?.items.size);
    expect((await get(again.deltaLink)).status).toBe(200);
  });

  it('refuses a token from a tenant’s earlier life (a simulator started again)', async () => {
    const { deltaLink } = await round(driveDelta);
    const fresh = graphOver({ users: 2, filesPerDrive: 8 }, 4);
    expect(fresh.tenant.clock).toBeLessThan(tenant.clock);
    expect((await fresh.get(deltaLink)).status).toBe(410);
  });

  it('token=latest answers no items and a delta link for what comes next', async () => {
    const latest = await get(`${driveDelta}?token=latest`);
    expect(latest.body.value).toEqual([]);
    const link = latest.body['@odata.deltaLink'] as string;
    expect((await round(link)).items).toEqual([]);
    evolve(tenant, { newFiles: 1 });
    expect((await round(link)).items.length).toBeGreaterThan(0);
  });

  describe('the call form with parentheses, as the Kiota-based SDKs send it', () => {
    it('answers messages/delta() as messages/delta, with links in Graph’s form that carry on', async () => {
      const plain = await round(mailDelta);
      const called = await round(`${mailDelta}()`);
      expect(called.items).toEqual(plain.items);
      expect(called.items.length).toBeGreaterThan(0);
      expect(called.deltaLink).toMatch(/\/messages\/delta\?\$deltatoken=/);
      const firstPage = (await get(`${mailDelta}()?$top=1`)).body;
      expect(firstPage['@odata.nextLink']).toMatch(/\/messages\/delta\?\$skiptoken=/);
      expect(firstPage['@odata.context']).toMatch(/\$metadata#Collection\(microsoft\.graph\.message\)$/);
      evolve(tenant, { newMessages: 2 });
      const inbox = user.folders.find((f) => f.wellKnownName === 'inbox');
      const fresh = [...user.messages.values()].filter((m) => m.folderId === inbox?.id && m.changed === tenant.clock);
      expect(fresh.length).toBeGreaterThan(0);
      expect((await round(called.deltaLink)).items).toEqual(fresh.map((m) => m.id));
    });

    it('answers root/delta(), items/root/delta() and a user’s drive alike, and delta(token=…) as ?token=', async () => {
      const plain = await round(driveDelta);
      const live = [...(tenant.drives.get(user.driveId)?.items.values() ?? [])].filter((i) => !i.deleted);
      expect(new Set(plain.items)).toEqual(new Set(live.map((i) => i.id)));
      for (const url of [
        `${driveDelta}()`,
        `/drives/${user.driveId}/items/root/delta()`,
        `/users/${user.id}/drive/root/delta()`,
        `/users/${user.id}/drive/items/root/delta()`,
      ]) {
        const called = await round(url);
        expect(called.items, url).toEqual(plain.items);
        expect(called.deltaLink, url).toMatch(/\/delta\?token=/);
      }
      const token = new URL(plain.deltaLink).searchParams.get('token') ?? '';
      const quoted = (text: string) => `'${text.replace(/'/g, "''")}'`;
      expect((await round(`${driveDelta}(token=${quoted(token)})`)).items).toEqual([]);
      evolve(tenant, { newFiles: tenant.drives.size });
      const after = await round(`/drives/${user.driveId}/items/root/delta(token=${quoted(token)})`);
      const expected = [...(tenant.drives.get(user.driveId)?.items.values() ?? [])].filter(
        (i) => i.changed === tenant.clock,
      );
      expect(expected.length).toBeGreaterThan(0);
      expect(after.items).toEqual(expected.map((i) => i.id));
      // As OneDrive's documented delta links write it: the token without quotes.
      expect((await round(`${driveDelta}(token=${token})`)).items).toEqual(after.items);
      const latest = await get(`${driveDelta}(token='latest')`);
      expect(latest.body.value).toEqual([]);
      expect(latest.body['@odata.deltaLink']).toMatch(/\/root\/delta\?token=/);
      expect((await get(`${driveDelta}(token='forged')`)).status).toBe(410);
    });

    it('refuses a parameter the function does not take', async () => {
      expect((await get(`${driveDelta}(since='2026-01-01')`)).status).toBe(400);
      expect((await get(`${mailDelta}(token='x')`)).status).toBeGreaterThanOrEqual(400);
    });
  });
});
