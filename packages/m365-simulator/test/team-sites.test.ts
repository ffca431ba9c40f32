/**
 * Teams' SharePoint sites (`teamSites`): each team's group has its root site, named after the team,
 * listed among the sites with a library the group owns; without the option the sites are `sites` only.
 */
import { describe, expect, it } from 'vitest';
import { graphOver } from './graph-walk.js';

type Row = Record<string, unknown> & { id: string };

describe('teams’ sites', () => {
  it('are each team group’s root site, listed among the sites, with a library the group owns', async () => {
    const { tenant, get, all } = graphOver({ users: 2, sites: 1, teams: 2, teamSites: true });
    const sites = await all<Row>('/sites?search=*');
    expect(sites.map((s) => s.displayName)).toEqual(['Marketing', 'Project Falcon', 'Sales Team']);
    for (const team of tenant.teams) {
      const root = await get(`/groups/${encodeURIComponent(team.id)}/sites/root`);
      expect(root.status).toBe(200);
      expect(root.body.displayName).toBe(team.name);
      expect(sites.map((s) => s.id)).toContain(root.body.id);
      const [library] = await all<Row>(`/sites/${encodeURIComponent(String(root.body.id))}/drives`);
      expect(library?.owner).toMatchObject({ group: { id: team.id, displayName: team.name } });
      const files = [...(tenant.drives.get(library?.id ?? '')?.items.values() ?? [])].filter((i) => i.kind === 'file');
      expect(files.length).toBeGreaterThan(0);
    }
    const allCompany = (await all<Row>('/groups')).find((g) => g.displayName === 'All Company');
    expect((await get(`/groups/${allCompany?.id}/sites/root`)).status).toBe(404);
  });

  it('are not there unless asked for', async () => {
    const { tenant, get, all } = graphOver({ users: 2, sites: 1, teams: 2 });
    expect((await all<Row>('/sites?search=*')).map((s) => s.displayName)).toEqual(['Marketing']);
    expect((await get(`/groups/${tenant.teams[0]?.id}/sites/root`)).status).toBe(404);
  });
});
