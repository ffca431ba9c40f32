/**
 * Restore of archived mail: the chosen messages, as their original MIME, into a folder (by default
 * "Restored") of the original mailbox or of another one. A resumed run skips what it put back before.
 */
import type { RestoreSpec } from '@compliance-portal/sdk';
import type { GraphApi } from '../../m365/graph-api.js';
import { counted } from '../../words.js';
import type { RunContext } from '../run-context.js';
import type { DataPlane } from './plane.js';

export const RESTORED_FOLDER = 'Restored';

/** The folder at `path` in the mailbox, created (with its parents) when missing; its id. */
async function ensureMailFolder(graph: GraphApi, mailbox: string, path: string): Promise<string> {
  const existing = new Map<string, string>();
  for await (const folder of graph.mailFolders(mailbox)) existing.set(folder.path.toLowerCase(), folder.id ?? '');
  let parentId: string | null = null;
  let walked = '';
  for (const name of path.split('/').filter(Boolean)) {
    walked = walked ? `${walked}/${name}` : name;
    const known = existing.get(walked.toLowerCase());
    parentId = known ?? (await graph.createMailFolder(mailbox, parentId, name)).id ?? '';
  }
  if (!parentId) throw new Error('The restore has no folder to put the mails into.');
  return parentId;
}

/** The archived mails of the restore's mailbox its node ids name (the numeric ones), oldest first. */
export async function chosenMails(rc: RunContext, spec: RestoreSpec) {
  const ids = spec.nodeIds.filter((id) => /^\d+$/.test(id));
  return rc.ctx.db.query<{ id: string; subject: string; blob_hash: string; location_id: string | null }>(
    `select id::text, subject, blob_hash, location_id from archive_items
      where tenant_id = $1 and kind = 'mail' and source = $2 and id = any($3::bigint[]) order by sent_at, id`,
    [rc.tenant.tenantId, spec.sourceId, ids],
  );
}

export async function restoreMail(rc: RunContext, plane: DataPlane, spec: RestoreSpec) {
  const rows = await chosenMails(rc, spec);
  if (rows.length === 0) throw new Error('None of the chosen mails is in the archive.');
  const target = spec.target === 'other' && spec.targetId ? spec.targetId : spec.sourceId;
  const folderPath = rc.job.folders?.[0] ?? RESTORED_FOLDER;
  const graph = await plane.graph(rc.tenant);
  const folderId = await ensureMailFolder(graph, target, folderPath);
  const done = new Set((rc.checkpoint.done as string[] | undefined) ?? []);
  rc.progress({ total: rows.length, done: done.size, source: target });
  for (const row of rows) {
    if (done.has(row.id)) continue;
    rc.checkStopped();
    const result = await rc.item({ key: `restore:mail:${row.id}`, name: row.subject, source: target }, async () => {
      const mime = await (await plane.storeAt(row.location_id)).get(row.blob_hash);
      await graph.importMessage(target, folderId, mime);
      return mime.length;
    });
    if (result.ok) rc.progress({ done: 1, bytes: result.value, source: target });
    done.add(row.id);
    if (done.size % 50 === 0) await rc.saveCheckpoint({ done: [...done] });
  }
  await rc.saveCheckpoint({ done: [...done] });
  return { message: `Restored ${counted(rows.length, 'mail')} into ${folderPath}.` };
}
