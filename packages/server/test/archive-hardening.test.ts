import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningSimulator, startSimulator } from '@compliance-portal/m365-simulator';
import type { DiscoveredSource, Page } from '@compliance-portal/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { archiveMail } from '../src/archive-data/archive.js';
import { escapeHtml, hitMarkers, markHits } from '../src/archive-data/highlight.js';
import { csvCell, csvText } from '../src/http/csv.js';
import { createDataPlane } from '../src/jobs/data-plane.js';
import { JobEngine } from '../src/jobs/engine.js';
import { executors } from '../src/jobs/executors.js';
import { createLocalBlobStore } from '../src/storage/blob-store.js';
import { ADMIN, PARTNER, sessionToken, TENANTS, useTestServer } from './helpers.js';
import { readZip } from './zip-reader.js';

const NEEDS_RIGHT = "You need a proxy right to read this mailbox's archive.";
const FORMULA = '=HYPERLINK("http://x","y")';
const HOSTILE = '<img src=x onerror=alert(1)>';

/** A plain-text mail whose subject and body a stranger chose. */
function hostileMime(subject: string, body: string) {
  return new TextEncoder().encode(
    [
      'From: Mallory <mallory@evil.example>',
      'To: victim@contoso.example',
      `Subject: ${subject}`,
      'Date: Mon, 02 Nov 2026 07:00:00 +0000',
      'Content-Type: text/plain; charset=utf-8',
      '',
      body,
      '',
    ].join('\r\n'),
  );
}

/** RFC 4180 as a spreadsheet program reads it: quoted cells with doubled quotes, CRLF lines. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/**
 * Archived mail comes from strangers and belongs to its mailbox: search snippets are escaped, CSV
 * cells cannot become formulas, and a mail's content (download, preview, restore elsewhere) is read
 * only with eDiscovery's right to read its mailbox, by administrators and partners alike.
 */
describe('archived mail: who reads it, and what strangers put in it', () => {
  const server = useTestServer({ dataDir: mkdtempSync(join(tmpdir(), 'portal-archive-hardening-')) });
  const tenantId = TENANTS.contoso;
  let sim: RunningSimulator;
  let admin = '';
  let partner = '';
  let worker = { workerIp: '', indexIp: '' };
  let clientWorker = { workerIp: '', indexIp: '' };
  let mailboxes: DiscoveredSource[] = [];
  /** The hostile mail in the first mailbox, archived by the archive job. */
  let hostile = { id: '', folder: 'Inbox' };
  let clientMailbox = '';
  let clientMail = '';

  const call = (token: string, method: string, url: string, body?: object) =>
    server.request({ method, url, token, ...(body ? { body } : {}) });
  const workerOf = async (tenant: string) => {
    const [w] = await server.ctx.db.query<{ worker_ip: string; index_ip: string }>(
      'select worker_ip, index_ip from workers where stagingtenant_id = $1',
      [tenant],
    );
    return { workerIp: w?.worker_ip ?? '', indexIp: w?.index_ip ?? '' };
  };
  /** Grants `principal` (by its e-mail among the proxy principals) the right to read `mailboxId`. */
  const grant = async (token: string, workerIp: string, mailboxId: string, email: string) => {
    const principals = (await call(token, 'GET', `/api/proxy-accounts?workerIp=${workerIp}`)).json() as {
      principalId: string;
      email: string;
    }[];
    const holder = principals.find((p) => p.email === email);
    const granted = await call(token, 'POST', '/api/proxy-rights', {
      workerIp,
      mailboxId,
      principalIds: [holder?.principalId],
    });
    expect(granted.statusCode, granted.body).toBe(201);
  };
  /** Where the audit log ends now: failures after it are those of the test that asked. */
  const auditMark = async () =>
    Number((await server.ctx.db.query<{ seq: number }>('select max(seq) as seq from audit_log'))[0]?.seq);
  const failures = (email: string, after: number) =>
    server.ctx.db.query<{ action: string; target: string }>(
      `select action, target from audit_log where actor_email = $1 and outcome = 'failure' and seq > $2 order by seq`,
      [email, after],
    );

  beforeAll(async () => {
    sim = await startSimulator({
      tenants: [
        { tenantId, size: { users: 2, messagesPerFolder: 1, sites: 0, teams: 0 } },
        { tenantId: TENANTS.northwind, size: { users: 2, messagesPerFolder: 1, sites: 0, teams: 0 } },
      ],
    });
    for (const t of [tenantId, TENANTS.northwind])
      await server.ctx.db.query('update tenants set graph_base_url = $2, authority_url = $3 where tenant_id = $1', [
        t,
        sim.graphBaseUrl,
        sim.authorityHost,
      ]);
    admin = await sessionToken(server, ADMIN);
    partner = await sessionToken(server, PARTNER);
    worker = await workerOf(tenantId);
    clientWorker = await workerOf(TENANTS.northwind);
    const [location] = await server.ctx.db.query<{ location_id: string }>(
      'select location_id from locations where tenant_id = $1 limit 1',
      [tenantId],
    );
    mailboxes = (
      (
        await call(
          admin,
          'GET',
          `/apollo-beta/api/${tenantId}/discovery/${location?.location_id}/users?application=exchange&sort=displayName`,
        )
      ).json() as Page<DiscoveredSource>
    ).items;
    const created = await call(admin, 'POST', `/apollo-beta/api/${tenantId}/jobs`, {
      name: 'Mail archive',
      type: 'exchangeArchive',
      application: 'exchange',
      sources: mailboxes.map((m) => m.sourceId),
      locationId: location?.location_id,
    });
    const { jobId } = created.json() as { jobId: string };
    await call(admin, 'POST', `/apollo-beta/api/${tenantId}/jobs/${jobId}/start`);
    await new JobEngine(server.ctx, {
      executors: executors(createDataPlane(server.ctx)),
      heartbeatMs: 50,
    }).runUntilIdle();

    // A stranger's mail, archived by the same job as the rest of the mailbox.
    const blobs = createLocalBlobStore(join(server.ctx.config.dataDir, 'blobs'));
    const owner = mailboxes[0]?.sourceId ?? '';
    await archiveMail(server.ctx.db, blobs, {
      tenantId,
      jobId,
      source: owner,
      folder: hostile.folder,
      externalId: 'hostile-1',
      mime: hostileMime(
        `${FORMULA} ${HOSTILE}`,
        `Dear all, the quarterly figures ${HOSTILE} are "final" & <script>alert('x')</script> signed.`,
      ),
      now: server.ctx.now(),
    });
    const [row] = await server.ctx.db.query<{ id: string }>(
      "select id::text from archive_items where external_id = 'hostile-1'",
    );
    hostile = { ...hostile, id: row?.id ?? '' };

    // The partner's client: a mailbox with one archived mail.
    const principals = (await call(partner, 'GET', `/api/proxy-accounts?workerIp=${clientWorker.workerIp}`)).json() as {
      principalId: string;
      kind: string;
    }[];
    clientMailbox =
      principals.find((p) => p.kind === 'account' && !p.principalId.startsWith('user:'))?.principalId ?? '';
    await archiveMail(server.ctx.db, blobs, {
      tenantId: TENANTS.northwind,
      jobId: null,
      source: clientMailbox,
      folder: 'Inbox',
      externalId: 'client-1',
      mime: hostileMime('Client mail', 'Nothing for the partner to read.'),
      now: server.ctx.now(),
    });
    const [client] = await server.ctx.db.query<{ id: string }>(
      "select id::text from archive_items where external_id = 'client-1'",
    );
    clientMail = client?.id ?? '';
  });
  afterAll(() => sim.close());
  // Each test starts without proxy rights: nobody reads another's mail until a test grants it.
  beforeEach(async () => {
    await server.ctx.db.query('delete from proxy_rights');
  });

  /** Every path that reads a mail's content, for `token` on the mailbox of `mailboxId` through `workerIp`. */
  const contentCalls = (token: string, workerIp: string, tenant: string, mailboxId: string, mailId: string) => ({
    eml: () =>
      call(token, 'POST', '/api/backup-and-restore/full-restore-download', {
        workerIp,
        mailboxId,
        messageIds: [mailId],
        format: 'eml',
      }),
    mailboxZip: () =>
      call(token, 'POST', '/api/backup-and-restore/full-restore-download', { workerIp, mailboxId, format: 'zip' }),
    preview: () => call(token, 'GET', `/apollo-beta/api/${tenant}/ediscovery/items/${mailId}`),
  });

  it('lists mailboxes to who acts for the organisation, but refuses their mail without a right, audited', async () => {
    const owner = mailboxes[0]?.sourceId ?? '';
    const other = mailboxes[1]?.sourceId ?? '';
    const mark = await auditMark();
    for (const url of [
      `/api/archive/mailboxes/${worker.workerIp}/${worker.indexIp}`,
      `/api/mailboxes/top?workerIp=${worker.workerIp}`,
      `/api/archive/mailbox-meta?workerIp=${worker.workerIp}&mailboxId=${encodeURIComponent(owner)}`,
      `/api/archive/downloadCSV/${worker.workerIp}/${worker.indexIp}`,
      `/api/backup-and-restore/archive/statistics?ip=${worker.workerIp}`,
    ]) {
      const listed = await call(admin, 'GET', url);
      expect(listed.statusCode, `${url}: ${listed.body}`).toBe(200);
    }
    const inbox = await server.ctx.db.query<{ id: string }>(
      `select id::text from archive_items where tenant_id = $1 and source = $2 and container = 'Inbox'`,
      [tenantId, owner],
    );
    const paths = contentCalls(admin, worker.workerIp, tenantId, owner, hostile.id);
    const refused = {
      eml: await paths.eml(),
      mailboxZip: await paths.mailboxZip(),
      folderZip: await call(admin, 'POST', '/api/backup-and-restore/full-restore-download', {
        workerIp: worker.workerIp,
        mailboxId: owner,
        messageIds: inbox.map((m) => m.id),
        format: 'zip',
      }),
      preview: await paths.preview(),
      restoreElsewhere: await call(admin, 'POST', '/api/backup-and-restore/restore-email', {
        workerIp: worker.workerIp,
        mailboxId: owner,
        messageIds: [hostile.id],
        targetMailbox: other,
      }),
    };
    for (const [path, response] of Object.entries(refused)) {
      expect(response.statusCode, `${path}: ${response.body}`).toBe(403);
      expect((response.json() as { message: string }).message, path).toBe(NEEDS_RIGHT);
    }
    expect(await failures(ADMIN, mark)).toEqual([
      { action: 'archive.download', target: owner },
      { action: 'archive.download', target: owner },
      { action: 'archive.download', target: owner },
      { action: 'ediscovery.preview', target: owner },
      { action: 'archive.restore', target: owner },
    ]);
    // Back into its own mailbox, nobody reads the mail: who acts for the organisation may.
    const home = await call(admin, 'POST', '/api/backup-and-restore/restore-email', {
      workerIp: worker.workerIp,
      mailboxId: owner,
      messageIds: [hostile.id],
    });
    expect(home.statusCode, home.body).toBe(202);

    // The apollo jobs API follows the same rule: a mail restore into another mailbox or as a download.
    const [archived] = await server.ctx.db.query<{ job_id: string }>('select job_id from archive_items where id = $1', [
      hostile.id,
    ]);
    for (const target of [{ target: 'other', targetId: other }, { target: 'download' }]) {
      const job = await call(admin, 'POST', `/apollo-beta/api/${tenantId}/jobs`, {
        name: 'Restore elsewhere',
        type: 'restore',
        application: 'exchange',
        sources: [target.targetId ?? owner],
        restore: {
          sourceJobId: archived?.job_id,
          snapshot: server.ctx.now().toISOString(),
          sourceId: owner,
          nodeIds: [hostile.id],
          conflictPolicy: 'keepBoth',
          ...target,
        },
      });
      expect(job.statusCode, `${target.target}: ${job.body}`).toBe(403);
      expect((job.json() as { message: string }).message).toBe(NEEDS_RIGHT);
    }
  });

  it('answers the same calls once the administrator holds a proxy right to the mailbox', async () => {
    const owner = mailboxes[0]?.sourceId ?? '';
    await grant(admin, worker.workerIp, owner, ADMIN);
    const paths = contentCalls(admin, worker.workerIp, tenantId, owner, hostile.id);
    const eml = await paths.eml();
    expect(eml.statusCode, eml.body).toBe(200);
    expect(eml.headers['content-type']).toContain('message/rfc822');
    const zip = await paths.mailboxZip();
    expect(zip.statusCode).toBe(200);
    expect(readZip(zip.rawPayload).size).toBeGreaterThan(1);
    const preview = await paths.preview();
    expect(preview.statusCode, preview.body).toBe(200);
    expect((preview.json() as { body: string }).body).toContain(HOSTILE);
    const elsewhere = await call(admin, 'POST', '/api/backup-and-restore/restore-email', {
      workerIp: worker.workerIp,
      mailboxId: owner,
      messageIds: [hostile.id],
      targetMailbox: mailboxes[1]?.sourceId,
    });
    expect(elsewhere.statusCode, elsewhere.body).toBe(202);
    // Another mailbox stays closed: the right is to this one.
    const second = contentCalls(admin, worker.workerIp, tenantId, mailboxes[1]?.sourceId ?? '', hostile.id);
    expect((await second.mailboxZip()).statusCode).toBe(403);
  });

  it('holds a partner acting for a client to the same rule', async () => {
    const mark = await auditMark();
    const paths = contentCalls(partner, clientWorker.workerIp, TENANTS.northwind, clientMailbox, clientMail);
    const listed = await call(
      partner,
      'GET',
      `/api/archive/mailboxes/${clientWorker.workerIp}/${clientWorker.indexIp}`,
    );
    expect(listed.statusCode).toBe(200);
    expect((listed.json() as Page<{ mailboxId: string }>).items.map((m) => m.mailboxId)).toEqual([clientMailbox]);
    for (const [path, run] of Object.entries(paths)) {
      const refused = await run();
      expect(refused.statusCode, `${path}: ${refused.body}`).toBe(403);
      expect((refused.json() as { message: string }).message).toBe(NEEDS_RIGHT);
    }
    expect((await failures(PARTNER, mark)).map((f) => f.target)).toEqual([clientMailbox, clientMailbox, clientMailbox]);
    await grant(partner, clientWorker.workerIp, clientMailbox, PARTNER);
    for (const [path, run] of Object.entries(paths)) {
      const answered = await run();
      expect(answered.statusCode, `${path}: ${answered.body}`).toBe(200);
    }
  });

  describe('with the administrator’s right to the first mailbox', () => {
    // Search and export reach only the mailboxes the caller may read.
    beforeEach(() => grant(admin, worker.workerIp, mailboxes[0]?.sourceId ?? '', ADMIN));

    it('answers search snippets as escaped text whose only markup is its own <mark>', async () => {
      const search = async (query: string) => {
        const response = await call(admin, 'POST', `/apollo-beta/api/${tenantId}/ediscovery/search`, {
          query,
          kinds: ['mail'],
          pageSize: 500,
        });
        expect(response.statusCode, response.body).toBe(200);
        const hit = (response.json() as { items: { itemId: string; snippet: string }[] }).items.find(
          (i) => i.itemId === hostile.id,
        );
        expect(hit, query).toBeDefined();
        return hit?.snippet ?? '';
      };
      for (const query of ['quarterly', 'signed', '']) {
        const snippet = await search(query);
        expect(snippet).not.toContain('<img');
        expect(snippet).not.toContain('<script');
        // Without its marks, nothing in it is markup: no tag, no quote, no bare ampersand.
        const text = snippet.replace(/<\/?mark>/g, '');
        expect(text, query).not.toMatch(/[<>"']|&(?!(amp|lt|gt|quot|#39);)/);
        expect(text).toContain(escapeHtml(HOSTILE));
        if (query) expect(snippet).toContain(`<mark>${query}</mark>`);
        else expect(snippet).not.toContain('<mark>');
      }
    });

    it('writes formulas from a mail subject into manifest.csv as text', async () => {
      const cases = `/apollo-beta/api/${tenantId}/ediscovery/cases`;
      const saved = await call(admin, 'POST', cases, {
        name: 'Hostile',
        search: { query: 'quarterly', kinds: ['mail'] },
      });
      expect(saved.statusCode, saved.body).toBe(201);
      const exported = await call(admin, 'GET', `${cases}/${(saved.json() as { caseId: string }).caseId}/export`);
      expect(exported.statusCode).toBe(200);
      const manifest = readZip(exported.rawPayload).get('manifest.csv')?.toString('utf8') ?? '';
      expect(manifest).toContain(`,"'=HYPERLINK(""http://x"",""y"") ${HOSTILE}",`);
      const rows = parseCsv(manifest);
      const line = rows.find((r) => r[0] === hostile.id);
      expect(line?.[4]).toBe(`'${FORMULA} ${HOSTILE}`);
      // The size stays a number.
      expect(line?.[8]).toMatch(/^\d+$/);
      expect(rows.every((r) => r.length === 10)).toBe(true);
    });
  });

  it('writes formulas from mailbox names into the mailbox CSV as text, numbers as they are', async () => {
    const [first, second] = mailboxes;
    await server.ctx.db.query(
      `update discovered_sources set display_name = case source_id when $2 then $3 else $4 end
        where tenant_id = $1 and application = 'exchange' and source_id in ($2, $5)`,
      [tenantId, first?.sourceId ?? '', FORMULA, '-2+3\r\n@SUM(A1)', second?.sourceId ?? ''],
    );
    const csv = await call(admin, 'GET', `/api/archive/downloadCSV/${worker.workerIp}/${worker.indexIp}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain(`"'=HYPERLINK(""http://x"",""y"")",`);
    const rows = parseCsv(csv.body);
    expect(rows[0]).toEqual(['Name', 'Email', 'Kind', 'Items protected', 'Stored size (bytes)', 'Last archived']);
    expect(rows.slice(1).map((r) => r[0])).toEqual(expect.arrayContaining([`'${FORMULA}`, "'-2+3\r\n@SUM(A1)"]));
    for (const row of rows.slice(1)) {
      expect(row).toHaveLength(6);
      expect(row[3]).toMatch(/^\d+$/);
      expect(row[4]).toMatch(/^\d+$/);
    }
  });
});

describe('the CSV helper', () => {
  it('puts a quote before text a spreadsheet would run, and only before text', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r'])
      expect(csvCell(`${start}1+1`)).toBe(start === '\r' ? `"'\r1+1"` : `"'${start}1+1"`);
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(1.5)).toBe('1.5');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell('Adele')).toBe('Adele');
    expect(csvCell(' =not first')).toBe(' =not first');
    expect(csvCell('a, "b"\nc')).toBe('"a, ""b""\nc"');
  });

  it('writes rows that read back as they were written, formulas as text', () => {
    const rows = [
      ['Subject', 'Size'],
      [FORMULA, 12],
      ['-1', -1],
      ['line\r\nbreak, "quoted"', 0],
      ["@cmd|' /C calc'!A0", 3],
    ];
    const text = csvText(rows);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(parseCsv(text)).toEqual([
      ['Subject', 'Size'],
      [`'${FORMULA}`, '12'],
      ["'-1", '-1'],
      ['line\r\nbreak, "quoted"', '0'],
      ["'@cmd|' /C calc'!A0", '3'],
    ]);
  });
});

describe('search highlights', () => {
  it('escape the text and turn only the markers into <mark>', () => {
    const markers = hitMarkers();
    expect(markers.start).toMatch(/^[a-z0-9]{40,}$/);
    expect(hitMarkers().start).not.toBe(markers.start);
    const headline = `a ${markers.start}hit${markers.stop} <mark>fake</mark> & "q" 'a' <b>`;
    expect(markHits(headline, markers)).toBe(
      'a <mark>hit</mark> &lt;mark&gt;fake&lt;/mark&gt; &amp; &quot;q&quot; &#39;a&#39; &lt;b&gt;',
    );
  });
});
