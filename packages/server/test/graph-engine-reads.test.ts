import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  evolve,
  GraphSchema,
  type Resolved,
  type RunningSimulator,
  startSimulator,
} from '@compliance-portal/m365-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataPlane } from '../src/jobs/data-plane.js';
import { JobEngine } from '../src/jobs/engine.js';
import { executors } from '../src/jobs/executors.js';
import { observeGraphReads } from '../src/m365/graph-client.js';
import { createLocalBlobStore } from '../src/storage/blob-store.js';
import { ADMIN, sessionToken, TENANTS, useTestServer } from './helpers.js';

type TypeRef = Extract<Resolved, { kind: 'stream' }>['owner'];

/** One step from an answer's root: a property (or control member) read, or `[]` for an array's element. */
interface Step {
  key: string;
  /** The `@odata.type` the value reached by this step carries (a derived type), when it has one. */
  cast?: string;
}

/** Where an answer came from: the request with its ids normalised (`/drives/{id}/root/delta`). */
interface Site {
  method: string;
  path: string;
  /** The answer's type when no Graph path names it (an upload session's pre-authenticated URL). */
  answer?: string;
  /** Not a Graph v1.0 request at all. */
  foreign?: boolean;
}

/** One property path the engine read from the answers at one site. */
interface GraphRead {
  site: Site;
  rootCast?: string;
  steps: Step[];
  /** As written in reports: `value[].file.hashes.quickXorHash`. */
  property: string;
  /** Who read it: the job (or other operation) that ran when it was first read, and any later. */
  labels: Set<string>;
}

interface Node {
  site: Site;
  rootCast?: string;
  steps: Step[];
  /** The property path without casts, and with them (the recording's key). */
  text: string;
  keyed: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const castOf = (value: unknown) => {
  const named = isObject(value) ? value['@odata.type'] : undefined;
  return typeof named === 'string' ? named.replace(/^#/, '') : undefined;
};
const siteKey = (site: Site) => `${site.method} ${site.path}${site.answer ? ` (${site.answer})` : ''}`;
/** JS internals asked of any object (promise resolution, JSON.stringify): not Graph properties. */
const INTERNAL = new Set(['then', 'toJSON']);
/** Substitutes the path a drive item is addressed by (`root:/a/b.txt:`), as GraphSchema.resolve reads it. */
const ADDRESSED = /:\/[^:]*(?::(?=\/|$)|$)/g;
const MARK = '\u0000';

/**
 * Records every property the engine reads from Graph's JSON answers: each answer is handed on wrapped
 * in proxies (objects and arrays, recursively) that note the property path read, keyed by the request
 * path with its ids normalised. Array indexes and length, symbols, `then`, `toJSON` and what objects
 * and arrays inherit are not Graph properties and are not recorded.
 */
class GraphReadRecorder {
  readonly reads = new Map<string, GraphRead>();
  /** Who reads now; set around each job. */
  label = 'setup';
  private readonly uploadUrls = new Set<string>();
  private readonly proxies = new WeakMap<object, unknown>();
  private readonly normalised = new Map<string, string>();

  constructor(readonly schema: GraphSchema) {}

  readonly observe = (method: string, url: string, body: unknown): unknown => {
    const site = this.siteOf(method, url, body);
    if (isObject(body) && typeof body.uploadUrl === 'string') this.uploadUrls.add(body.uploadUrl);
    const rootCast = castOf(body);
    const cast = rootCast ? `<${rootCast}>` : '';
    return this.wrap(body, { site, ...(rootCast ? { rootCast } : {}), steps: [], text: '', keyed: cast });
  };

  private siteOf(method: string, url: string, body: unknown): Site {
    const at = new URL(url);
    if (at.pathname.startsWith('/v1.0/')) return { method, path: this.normalise(at.pathname.slice('/v1.0'.length)) };
    if (this.uploadUrls.has(url)) {
      // Graph answers a fragment with the session's next ranges, and the last one with the driveItem.
      const answer =
        isObject(body) && 'nextExpectedRanges' in body ? 'microsoft.graph.uploadSession' : 'microsoft.graph.driveItem';
      return { method, path: '{uploadUrl}', answer };
    }
    return { method, path: `${at.origin}${at.pathname}`, foreign: true };
  }

  /** `/users/adele@contoso/drive/items/01AB:/a b.txt:/content` → `/users/{id}/drive/items/{id}:/{path}:/content`. */
  normalise(path: string): string {
    const known = this.normalised.get(path);
    if (known) return known;
    const segments = path.replace(ADDRESSED, MARK).split('/').filter(Boolean);
    const plain = segments.map((s) => s.replace(MARK, ''));
    const out = segments.map((segment, i) => {
      const tail = segment.includes(MARK) ? ':/{path}:' : '';
      const name = plain[i] ?? '';
      if (i === 0) return `${name}${tail}`;
      const before = this.schema.resolve(`/${plain.slice(0, i).join('/')}`);
      const bare = decodeURIComponent(name).replace(/\(.*\)$/, '');
      const key =
        before.kind === 'entity' &&
        before.type.collection &&
        !(bare.includes('.') && this.schema.model.types.has(bare)) &&
        !this.schema.operation(bare, before.type);
      return `${key ? '{id}' : name}${tail}`;
    });
    const result = `/${out.join('/')}`;
    this.normalised.set(path, result);
    return result;
  }

  private wrap(value: unknown, node: Node): unknown {
    if (typeof value !== 'object' || value === null) return value;
    const cached = this.proxies.get(value);
    if (cached) return cached;
    const proxy = new Proxy(value, {
      get: (target, key, receiver) => {
        const result: unknown = Reflect.get(target, key, receiver);
        const child = this.step(target, key, node);
        return child ? this.wrap(result, child) : result;
      },
      has: (target, key) => {
        this.step(target, key, node);
        return Reflect.has(target, key);
      },
    });
    this.proxies.set(value, proxy);
    return proxy;
  }

  /** Records a read of `key` (when it is a Graph property) and answers the node of what it reaches. */
  private step(target: object, key: string | symbol, node: Node): Node | undefined {
    if (typeof key === 'symbol') return undefined;
    if (Array.isArray(target)) {
      if (!/^\d+$/.test(key)) return undefined;
      const cast = castOf(target[Number(key)]);
      return {
        site: node.site,
        ...(node.rootCast ? { rootCast: node.rootCast } : {}),
        steps: [...node.steps, { key: '[]', ...(cast ? { cast } : {}) }],
        text: `${node.text}[]`,
        keyed: `${node.keyed}[]${cast ? `<${cast}>` : ''}`,
      };
    }
    const own = Object.hasOwn(target, key);
    if (!own && (INTERNAL.has(key) || key in Object.prototype)) return undefined;
    const text = node.text ? `${node.text}.${key}` : key;
    const keyed = `${node.keyed}.${key}`;
    const id = `${siteKey(node.site)} ${keyed}`;
    const read = this.reads.get(id);
    if (read) read.labels.add(this.label);
    else
      this.reads.set(id, {
        site: node.site,
        ...(node.rootCast ? { rootCast: node.rootCast } : {}),
        steps: [...node.steps, { key }],
        property: text,
        labels: new Set([this.label]),
      });
    const cast = own ? castOf((target as Record<string, unknown>)[key]) : undefined;
    return {
      site: node.site,
      ...(node.rootCast ? { rootCast: node.rootCast } : {}),
      steps: [...node.steps, { key, ...(cast ? { cast } : {}) }],
      text,
      keyed: `${keyed}${cast ? `<${cast}>` : ''}`,
    };
  }
}

/**
 * Why a property path cannot be read from the answer at its site according to Graph v1.0's metadata,
 * or undefined when it can: the path is resolved to the answer's type (an entity, a collection of
 * them, a complex or primitive value), and each step to a structural or navigation property of the
 * type reached (of the derived type an `@odata.type` names, which must derive from it). OData control
 * members pass where Graph documents them: `@odata.context`, `@odata.nextLink` and `@odata.count`
 * beside a collection, `@odata.deltaLink` beside a delta function's, `@removed` (with its `reason`) on
 * a delta answer's members, `@odata.type`, `@odata.id` and `@odata.etag` on any object, and
 * `@microsoft.graph.downloadUrl` on a driveItem.
 */
function readProblem(schema: GraphSchema, read: GraphRead): string | undefined {
  const { site, steps } = read;
  if (site.foreign) return `${site.path} is not a Microsoft Graph v1.0 request`;
  let type: TypeRef;
  let wrapped: boolean;
  let delta = false;
  if (site.answer) {
    type = { name: site.answer, collection: false };
    wrapped = false;
  } else {
    const resolved = schema.resolve(site.path);
    if (resolved.kind === 'error') return `the path is not in the model: ${resolved.reason}`;
    if (resolved.kind === 'stream' && site.method !== 'GET') {
      // Writing a media value (PUT …/content) answers the entity it belongs to.
      type = resolved.owner;
      wrapped = false;
    } else if (resolved.kind === 'stream' || resolved.kind === 'count' || resolved.kind === 'none') {
      return `the path answers no JSON (${resolved.kind})`;
    } else {
      // POST to a collection creates one member of it.
      type =
        site.method === 'POST' && resolved.type.collection && resolved.kind === 'entity' && !resolved.operation
          ? { name: resolved.type.name, collection: false }
          : resolved.type;
      wrapped = type.collection || resolved.kind === 'primitive' || resolved.kind === 'enum';
      delta = resolved.operation && /\/delta$/.test(site.path);
    }
  }
  const castTo = (current: TypeRef, cast: string | undefined): TypeRef | string => {
    if (!cast) return current;
    const full = cast.includes('.') ? cast : `microsoft.graph.${cast}`;
    if (!schema.model.types.has(full)) return `@odata.type ${cast} is not a type of the model`;
    if (!schema.derivesFrom(full, current.name)) return `@odata.type ${full} does not derive from ${current.name}`;
    return { name: full, collection: current.collection };
  };
  let current: TypeRef = type;
  let i = 0;
  if (wrapped) {
    const first = steps[0]?.key ?? '';
    if (first !== 'value') {
      const allowed = ['@odata.context', '@odata.nextLink', '@odata.count', ...(delta ? ['@odata.deltaLink'] : [])];
      if (!allowed.includes(first)) return `'${first}' is not a member of a collection answer (value, ${allowed})`;
      return steps.length > 1 ? `${first} has no members` : undefined;
    }
    i = 1;
  } else {
    const cast = castTo(current, read.rootCast);
    if (typeof cast === 'string') return cast;
    current = cast;
  }
  for (; i < steps.length; i++) {
    const step = steps[i] as Step;
    if (current.collection) {
      if (step.key !== '[]') return `'${step.key}' read on a collection of ${current.name}`;
      current = { name: current.name, collection: false };
    } else if (step.key === '[]') {
      return `${current.name} is not a collection`;
    } else if (current.name === 'Edm.Untyped') {
      // An untyped value (a web part's `data.properties`) is JSON of any shape: kept whole, as read.
      return undefined;
    } else if (!schema.model.types.has(current.name)) {
      return `'${step.key}' read on a ${current.name} value, which has no properties`;
    } else if (step.key.startsWith('@')) {
      const memberOfDelta = delta && wrapped && i === 2;
      const rest = steps.slice(i + 1).map((s) => s.key);
      if (step.key === '@removed') {
        if (!memberOfDelta) return '@removed outside the members of a delta answer';
        return rest.length === 0 || (rest.length === 1 && rest[0] === 'reason')
          ? undefined
          : `@removed has only a reason, not ${rest.join('.')}`;
      }
      const allowed =
        ['@odata.type', '@odata.id', '@odata.etag'].includes(step.key) ||
        (step.key === '@odata.context' && i === 0) ||
        (step.key === '@microsoft.graph.downloadUrl' && schema.derivesFrom(current.name, 'microsoft.graph.driveItem'));
      if (!allowed) return `${step.key} is not a control member Graph documents on ${current.name}`;
      return rest.length > 0 ? `${step.key} has no members` : undefined;
    } else if (step.key.includes('@')) {
      // `children@odata.count`, `name@odata.type`: an annotation of a property that must exist.
      const owner = step.key.slice(0, step.key.indexOf('@'));
      if (!schema.property(current.name, owner)) return `'${owner}' is not a property of ${current.name}`;
      return steps.length > i + 1 ? `${step.key} has no members` : undefined;
    } else {
      const property = schema.property(current.name, step.key);
      // An open type that declares no property of its own (fieldValueSet: a list item's columns by
      // their names) holds dynamic properties only, as the simulator's answer check takes them.
      const def = schema.model.types.get(current.name);
      if (!property && def?.openType && def.properties.size === 0) return undefined;
      if (!property) return `'${step.key}' is not a property of ${current.name}`;
      current = property.type;
    }
    const cast = castTo(current, step.cast);
    if (typeof cast === 'string') return cast;
    current = cast;
  }
  return undefined;
}

/**
 * Every property the jobs engine reads from Microsoft Graph, checked against Graph's published v1.0
 * metadata: the simulator's answers are checked on their own (global-setup), but the engine could
 * still read a property Graph never sends (`item.fileHash` for `file.hashes.quickXorHash`) and find
 * it undefined in production only. Every job type runs against the simulator with its answers wrapped
 * in recording proxies, a delta re-run included, and each property path read must resolve.
 */
describe('what the jobs engine reads from Microsoft Graph', () => {
  const server = useTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'portal-graph-reads-')) });
  const blobs = createLocalBlobStore(mkdtempSync(join(tmpdir(), 'portal-graph-reads-blobs-')));
  const tenantId = TENANTS.contoso;
  const schema = new GraphSchema();
  const recorder = new GraphReadRecorder(schema);
  let sim: RunningSimulator;
  let engine: JobEngine;
  let token = '';
  /** Who read from Graph, in order: each job run, job creation (its discovery), user sync, the connection test. */
  const ran = new Set<string>();

  beforeAll(async () => {
    sim = await startSimulator({
      tenants: [
        {
          tenantId,
          size: {
            users: 3,
            sites: 1,
            teams: 1,
            channelsPerTeam: 1,
            foldersPerDrive: 1,
            filesPerDrive: 4,
            versionsPerFile: 2,
            messagesPerFolder: 2,
            messagesPerChannel: 2,
            repliesPerMessage: 1,
            chats: 2,
            messagesPerChat: 2,
          },
        },
      ],
      // Small pages: lists and deltas follow their @odata.nextLink.
      pageSize: 3,
    });
    await server.ctx.db.query('update tenants set graph_base_url = $2, authority_url = $3 where tenant_id = $1', [
      tenantId,
      sim.graphBaseUrl,
      sim.authorityHost,
    ]);
    engine = new JobEngine(server.ctx, { executors: executors(createDataPlane(server.ctx, blobs)), heartbeatMs: 50 });
    token = await sessionToken(server, ADMIN);
    observeGraphReads(recorder.observe);
  });
  afterAll(async () => {
    observeGraphReads(undefined);
    await sim.close();
  });

  const create = async (body: object) => {
    recorder.label = 'job creation (discovery)';
    ran.add(recorder.label);
    const response = await server.request({ method: 'POST', url: `/apollo-beta/api/${tenantId}/jobs`, token, body });
    if (response.statusCode !== 200) throw new Error(`create ${response.statusCode} ${response.body}`);
    return (response.json() as { jobId: string }).jobId;
  };
  /** Runs the job once under `label`; its run's status and message. */
  const run = async (label: string, jobId: string) => {
    recorder.label = label;
    ran.add(label);
    await server.request({ method: 'POST', url: `/apollo-beta/api/${tenantId}/jobs/${jobId}/start`, token });
    await engine.runUntilIdle();
    const [row] = await server.ctx.db.query<{ status: string; message: string }>(
      'select status, message from job_runs where job_id = $1 order by seq desc limit 1',
      [jobId],
    );
    expect(row?.status, `${label}: ${row?.message}`).toBe('finished');
    return row;
  };
  const members = () => sim.state.tenant(tenantId).users.filter((u) => !u.upn.includes('#EXT#'));
  const snapshot = () => new Date(Date.now() + 86_400_000).toISOString();

  it('runs every job type, a delta re-run, user sync and the connection test, and each read resolves in the v1.0 metadata', async () => {
    const tenant = sim.state.tenant(tenantId);
    const [owner, other] = members();
    const site = tenant.sites[0];
    const team = tenant.teams[0];
    if (!owner || !other || !site || !team) throw new Error('the simulated tenant lacks an account, site or team');
    // One file above the simple upload's 4 MiB, shared: its restore in place goes through an upload
    // session and reads the item the last fragment answers, to share it again.
    const big = [...(tenant.drives.get(owner.driveId)?.items.values() ?? [])].find(
      (i) => i.kind === 'file' && !i.forbidden,
    );
    const latest = big?.versions.at(-1);
    if (!big || !latest) throw new Error('no file to enlarge');
    latest.size = 4.5 * 1024 * 1024;
    big.permissions.push({ id: 'grant-big', userId: other.id, roles: ['write'] });

    const onedrive = await create({ name: 'OneDrive', type: 'backup', application: 'onedrive', sources: [owner.id] });
    await run('backup (OneDrive)', onedrive);
    const sharepoint = await create({ name: 'Site', type: 'backup', application: 'sharepoint', sources: [site.id] });
    await run('backup (SharePoint)', sharepoint);
    const teams = await create({ name: 'Team', type: 'backup', application: 'teams', sources: [team.id] });
    await run('backup (Teams)', teams);
    const mail = await create({ name: 'Mail', type: 'exchangeArchive', application: 'exchange', sources: [owner.id] });
    await run('Exchange archive', mail);

    // Changes, then the delta links of the first runs: changed and deleted items, @removed, the next link.
    evolve(tenant, { newFiles: 3, editedFiles: 2, deletedFiles: 2, newMessages: 2 });
    await run('delta re-run (OneDrive)', onedrive);
    await run('delta re-run (SharePoint)', sharepoint);
    await run('delta re-run (Exchange)', mail);

    const restore = (application: string, sourceJobId: string, sourceId: string, spec: object) =>
      create({
        name: `Restore ${application}`,
        type: 'restore',
        application,
        sources: [sourceId],
        restore: {
          sourceJobId,
          snapshot: snapshot(),
          sourceId,
          nodeIds: ['root'],
          conflictPolicy: 'keepBoth',
          ...spec,
        },
      });
    await run(
      'restore (OneDrive, in place)',
      await restore('onedrive', onedrive, owner.id, { target: 'original', conflictPolicy: 'overwrite' }),
    );
    // The other account lacks the folders: the restore creates them.
    for (const folder of tenant.drives.get(other.driveId)?.items.values() ?? [])
      if (folder.kind === 'folder') folder.deleted = true;
    await run(
      'restore (OneDrive, another account)',
      await restore('onedrive', onedrive, owner.id, { target: 'other', targetId: other.id }),
    );
    await run('restore (SharePoint)', await restore('sharepoint', sharepoint, site.id, { target: 'original' }));
    const archived = await server.ctx.db.query<{ id: string }>(
      `select id::text from archive_items where tenant_id = $1 and kind = 'mail' and source = $2 order by id limit 2`,
      [tenantId, owner.id],
    );
    expect(archived.length).toBeGreaterThan(0);
    await run(
      'restore (Exchange)',
      await restore('exchange', mail, owner.id, { target: 'original', nodeIds: archived.map((a) => a.id) }),
    );

    const teamsArchive = await create({
      name: 'Teams and chats',
      type: 'teamsArchive',
      application: 'teams',
      sources: [team.id],
      chats: [owner.id, other.id],
    });
    await run('Teams archive (channels and chats)', teamsArchive);
    // Deletion by retention works on the archive alone: it reads nothing from Graph.
    const deletion = await create({
      name: 'Retention',
      type: 'archiveDeletion',
      application: 'teams',
      sources: [team.id],
      chats: [owner.id],
      retention: { unit: 'days', value: 30 },
    });
    await run('archive deletion', deletion);
    const cleanup = await create({
      name: 'Keep 1',
      type: 'versionCleanup',
      application: 'sharepoint',
      sources: [site.id],
      cleanupRule: { kind: 'keepNewest', count: 1 },
    });
    await run('version clean-up', cleanup);

    recorder.label = 'user sync';
    ran.add(recorder.label);
    const sync = await server.request({
      method: 'POST',
      url: '/apollo-beta/sync-user-config',
      token,
      body: { tenantId },
    });
    expect(sync.statusCode, sync.body).toBe(200);
    recorder.label = 'connection test';
    ran.add(recorder.label);
    const test = await server.request({
      method: 'POST',
      url: '/apollo-beta/test-onedrive-connection',
      token,
      body: { tenantId },
    });
    expect(test.json()).toMatchObject({ ok: true });
    recorder.label = 'after';

    const reads = [...recorder.reads.values()];
    const mismatches = reads.flatMap((read) => {
      const reason = readProblem(schema, read);
      return reason ? [`${siteKey(read.site)} ${read.property}: ${reason} (${[...read.labels].join(', ')})`] : [];
    });
    const paths = new Set(reads.map((r) => siteKey(r.site)));
    const properties = new Set(reads.map((r) => `${siteKey(r.site)} ${r.property}`));
    console.log(
      `Engine Graph reads checked against the v1.0 metadata: paths ${paths.size}, properties ${properties.size}, mismatches ${mismatches.length}`,
    );
    expect(mismatches).toEqual([]);
    expect(paths.size).toBeGreaterThanOrEqual(20);
    expect(properties.size).toBeGreaterThanOrEqual(150);

    // Every job type (archive deletion aside), job creation's discovery, user sync and the connection test read from Graph.
    const byLabel = new Map<string, number>();
    for (const read of reads) for (const label of read.labels) byLabel.set(label, (byLabel.get(label) ?? 0) + 1);
    const silent = [...ran].filter((label) => label !== 'archive deletion' && !byLabel.get(label));
    expect(silent).toEqual([]);
    expect(byLabel.get('archive deletion') ?? 0).toBe(0);

    const has = (site: string, property: string, label?: string) =>
      reads.some(
        (r) => siteKey(r.site) === site && r.property === property && (label === undefined || r.labels.has(label)),
      );
    // The delta re-runs read the links the first runs stored, and what changed.
    expect(has('GET /drives/{id}/root/delta', '@odata.deltaLink', 'delta re-run (OneDrive)')).toBe(true);
    expect(has('GET /drives/{id}/root/delta', 'value[].deleted', 'delta re-run (OneDrive)')).toBe(true);
    expect(has('GET /users/{id}/mailFolders/{id}/messages/delta', '@odata.deltaLink', 'delta re-run (Exchange)')).toBe(
      true,
    );
    expect(has('GET /users/{id}/mailFolders/{id}/messages/delta', 'value[].@removed', 'delta re-run (Exchange)')).toBe(
      true,
    );
    // Content is checked against Graph's hash; the upload session's link and its last answer are read.
    expect(has('GET /drives/{id}/root/delta', 'value[].file.hashes.quickXorHash')).toBe(true);
    expect(has('POST /drives/{id}/items/{id}:/{path}:/createUploadSession', 'uploadUrl')).toBe(true);
    expect(has('PUT {uploadUrl} (microsoft.graph.driveItem)', 'id')).toBe(true);
    expect(has('POST /drives/{id}/items/{id}/children', 'id')).toBe(true);
    expect(has('GET /chats/{id}/members', 'value[].userId')).toBe(true);
  });

  it('reports a property Graph does not have, a control member where Graph sends none, and a cast that does not derive', () => {
    const probe = new GraphReadRecorder(schema);
    const base = 'https://graph.example/v1.0';
    const drive = probe.observe('GET', `${base}/drives/b!x/root/delta?token=abc`, {
      value: [{ id: '1', name: 'a.txt', file: { hashes: { quickXorHash: 'AAAA' } } }],
    }) as { value: Record<string, unknown>[] };
    const item = drive.value[0] as { fileHash?: unknown; file: { hashes: { quickXorHash: string } } };
    expect([item.fileHash, item.file.hashes.quickXorHash]).toEqual([undefined, 'AAAA']);
    const message = probe.observe('GET', `${base}/users/u1/messages/m1`, { id: 'm1', subject: 's' }) as {
      mimeBody?: unknown;
      subject: string;
      '@removed'?: unknown;
    };
    expect([message.mimeBody, message.subject, message['@removed']]).toEqual([undefined, 's', undefined]);
    const members = probe.observe('GET', `${base}/chats/19%3Aabc%40thread.v2/members`, {
      value: [{ '@odata.type': '#microsoft.graph.driveItem', userId: 'u1' }],
    }) as { value: { userId: string }[] };
    expect(members.value[0]?.userId).toBe('u1');
    const found = [...probe.reads.values()]
      .map((read) => ({ at: `${siteKey(read.site)} ${read.property}`, reason: readProblem(schema, read) }))
      .filter((r) => r.reason);
    expect(found).toEqual([
      {
        at: 'GET /drives/{id}/root/delta value[].fileHash',
        reason: "'fileHash' is not a property of microsoft.graph.driveItem",
      },
      {
        at: 'GET /users/{id}/messages/{id} mimeBody',
        reason: "'mimeBody' is not a property of microsoft.graph.message",
      },
      { at: 'GET /users/{id}/messages/{id} @removed', reason: '@removed outside the members of a delta answer' },
      {
        at: 'GET /chats/{id}/members value[].userId',
        reason: '@odata.type microsoft.graph.driveItem does not derive from microsoft.graph.conversationMember',
      },
    ]);
    // What exists passes: the hash, the subject, the delta's own members.
    const ok = [...probe.reads.values()].filter((read) => !readProblem(schema, read)).map((r) => r.property);
    expect(ok).toEqual(expect.arrayContaining(['value', 'value[].file.hashes.quickXorHash', 'subject']));
  });
});
