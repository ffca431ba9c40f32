/**
 * Archiving: Exchange mail (each message as its MIME, per folder by message delta, so later runs
 * fetch only new mail), Teams channel messages with their replies and the chats of chosen accounts;
 * archive deletion removes what is older than the job's retention.
 */
import type { Retention } from '@compliance-portal/sdk';
import type { ArchiveRow } from '../../storage/archive.js';
import { forEachLimit, readAhead } from '../pool.js';
import type { Executor, ItemRef } from '../run-context.js';
import { resyncMessage } from './backup.js';
import type { DataPlane } from './plane.js';
import { forEachChannelMessage, forEachChatMessage } from './teams.js';

/**
 * Messages of a page fetched and stored at once: more than a tenant's bound on Graph requests in
 * flight, so that its client always has the next request queued while others are parsed and stored.
 */
const MAIL_CONCURRENCY = 24;
/** Messages recorded in one statement. */
const MAIL_BATCH = 100;

/** Does the folder path fall under one of the chosen folders (a folder includes its subfolders)? */
function folderChosen(path: string, chosen: readonly string[] | undefined): boolean {
  if (!chosen || chosen.length === 0) return true;
  const p = path.toLowerCase();
  return chosen.some((c) => {
    const f = c.toLowerCase().replace(/\/+$/, '');
    return p === f || p.startsWith(`${f}/`);
  });
}

export function exchangeArchiveExecutor(plane: DataPlane): Executor {
  return async (rc) => {
    const graph = await plane.graph(rc.tenant);
    let archived = 0;
    const resynced: string[] = [];
    for (const mailbox of rc.job.sources) {
      rc.checkStopped();
      if (await rc.isKnownFailure(`mailbox:${mailbox}`)) continue;
      // A guest (#EXT#) account or a user without a mailbox fails here once, for good.
      const folders = await rc.item(
        { key: `mailbox:${mailbox}`, name: mailbox, source: mailbox, wholeSource: true },
        async () => {
          const list = [];
          for await (const folder of graph.mailFolders(mailbox)) {
            if (folderChosen(folder.path, rc.job.folders)) list.push(folder);
          }
          return list;
        },
      );
      if (!folders.ok) continue;
      for (const folder of folders.value) {
        const key = `${mailbox}:${folder.id ?? ''}`;
        const pages = graph.messagesDelta(mailbox, folder.id ?? '', await rc.deltaLink(key));
        for await (const page of readAhead(pages)) {
          const messages = page.filter((m) => !(m as { '@removed'?: unknown })['@removed']);
          rc.progress({ total: messages.length, source: mailbox });
          // Read again (a resync, or a run resumed after an interruption): not fetched twice.
          const known = await plane.archive.archivedMails(
            rc.tenant.tenantId,
            mailbox,
            messages.map((m) => m.id ?? ''),
          );
          // Fetched and stored messages wait here to be recorded many to a statement.
          let batch: { row: ArchiveRow; ref: ItemRef }[] = [];
          const record = async () => {
            const rows = batch;
            batch = [];
            if (rows.length === 0) return;
            let saved: boolean;
            try {
              await plane.archive.saveMails(rows.map((r) => r.row));
              saved = true;
            } catch {
              saved = false;
            }
            for (const { row, ref } of rows) {
              // A batch that failed is recorded item by item, so that only a failing item fails.
              const result = saved ? { ok: true } : await rc.item(ref, () => plane.archive.saveMails([row]));
              if (result.ok) {
                archived += 1;
                rc.progress({ done: 1, bytes: row.size, source: mailbox });
              }
            }
          };
          await forEachLimit(messages, MAIL_CONCURRENCY, async (message) => {
            rc.checkStopped();
            const externalId = message.id ?? '';
            const size = known.get(externalId);
            if (size !== undefined) {
              archived += 1;
              rc.progress({ done: 1, bytes: size, source: mailbox });
              return;
            }
            const ref = {
              key: `mail:${mailbox}/${externalId}`,
              name: `${mailbox}: ${message.subject ?? ''}`,
              source: mailbox,
            };
            const result = await rc.item(ref, async () => {
              const mime = await graph.messageMime(mailbox, externalId);
              return plane.archive.prepareMail({
                tenantId: rc.tenant.tenantId,
                jobId: rc.job.jobId,
                source: mailbox,
                folder: folder.path,
                externalId,
                mime,
              });
            });
            if (!result.ok) return;
            batch.push({ row: result.value, ref });
            if (batch.length >= MAIL_BATCH) await record();
          });
          await record();
        }
        if (pages.resynced()) resynced.push(`${mailbox} ${folder.path}`);
        const link = pages.deltaLink();
        if (link) await rc.saveDeltaLink(key, link);
      }
    }
    const resync = resynced.length > 0 ? ` ${resyncMessage(resynced, 'mail folder')}` : '';
    return { message: `Archived ${archived} message(s).${resync}` };
  };
}

export function teamsArchiveExecutor(plane: DataPlane): Executor {
  return async (rc) => {
    const graph = await plane.graph(rc.tenant);
    let archived = 0;
    await forEachChannelMessage(rc, graph, async (teamId, channel, message) => {
      const isNew = await plane.archive.teamsMessage({
        tenantId: rc.tenant.tenantId,
        jobId: rc.job.jobId,
        source: teamId,
        channel: channel.displayName ?? channel.id ?? '',
        externalId: message.id ?? '',
        message,
      });
      if (isNew) archived += 1;
      rc.progress({ total: 1, done: 1, source: teamId });
    });
    await forEachChatMessage(
      rc,
      graph,
      rc.job.chats ?? [],
      (chat) => plane.archive.chat({ tenantId: rc.tenant.tenantId, ...chat }),
      async (chat, name, message, account) => {
        const isNew = await plane.archive.teamsMessage({
          tenantId: rc.tenant.tenantId,
          jobId: rc.job.jobId,
          kind: 'chat',
          source: chat.chatId,
          channel: name,
          externalId: message.id ?? '',
          message,
        });
        if (isNew) archived += 1;
        rc.progress({ total: 1, done: 1, source: account });
      },
    );
    return { message: `Archived ${archived} new Teams message(s).` };
  };
}

/** The instant before which archived items are deleted. */
export function retentionCutoff(now: Date, retention: Retention): Date {
  const cutoff = new Date(now);
  if (retention.unit === 'days') cutoff.setUTCDate(cutoff.getUTCDate() - retention.value);
  else if (retention.unit === 'months') cutoff.setUTCMonth(cutoff.getUTCMonth() - retention.value);
  else cutoff.setUTCFullYear(cutoff.getUTCFullYear() - 1);
  return cutoff;
}

export function archiveDeletionExecutor(plane: DataPlane): Executor {
  return async (rc) => {
    const retention = rc.job.retention;
    if (!retention) throw new Error('The archive deletion job has no retention.');
    const kind = rc.job.application === 'exchange' ? 'mail' : 'teams';
    const before = retentionCutoff(rc.ctx.now(), retention);
    const { items, bytes } = await plane.archive.deleteBefore(
      rc.tenant.tenantId,
      kind,
      before,
      rc.job.sources,
      rc.job.chats ?? [],
    );
    rc.progress({ total: items, done: items, bytes });
    return { message: `Deleted ${items} archived item(s) older than ${before.toISOString().slice(0, 10)}.` };
  };
}
