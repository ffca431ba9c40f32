/**
 * Every path the simulator serves, answered with validation on across a tenant and checked against
 * Microsoft Graph v1.0's published metadata: 0 mismatches, every route of the table answered.
 */
import { describe, expect, it } from 'vitest';
import { matchRoute } from '../src/graph/router.js';
import { ROUTES } from '../src/graph/service.js';
import { graphOver, walkEverything } from './graph-walk.js';

describe('every path of the simulator against Graph v1.0’s metadata', () => {
  it('answers everything it serves as the metadata declares it: 0 mismatches', async () => {
    const graph = graphOver({ users: 4, sites: 2, teams: 2, chats: 3, standardFolders: true, teamSites: true }, 3);
    await walkEverything(graph);
    const v = graph.validation;
    if (!v) throw new Error('validation is off');
    console.log(`answers ${v.answers}, properties ${v.properties}, mismatches ${v.mismatches.length}`);
    expect(v.mismatches.map((m) => `${m.method} ${m.route ?? m.path} ${m.pointer}: ${m.reason}`)).toEqual([]);
    expect(v.answers).toBeGreaterThan(400);
    expect(v.properties).toBeGreaterThan(10_000);
    // Every route of the table was answered at least once.
    const hit = new Set<string>();
    for (const r of graph.requests) {
      const segments = r.path
        .replace(/^\/v1\.0/, '')
        .split('/')
        .filter(Boolean)
        .map(decodeURIComponent);
      const matched = matchRoute(ROUTES, r.method, segments);
      if (matched) hit.add(`${r.method} ${matched.route.pattern.join('/')}`);
    }
    const missed = ROUTES.map((r) => `${r.method} ${r.pattern.join('/')}`).filter((name) => !hit.has(name));
    expect(missed).toEqual([]);
  });
});
