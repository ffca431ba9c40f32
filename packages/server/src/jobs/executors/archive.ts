/**
 * Archiving: Exchange mail (each message as its MIME, per folder by message delta, so later runs
 * fetch only new mail), Teams channel messages with their replies and the chats of chosen accounts;
 * archive deletion removes what is older than the job's retention.
 */
import type { Retention } from '@compliance-portal/sdk';
import type { ArchivedSize, ArchiveRow } from '../../archive-data/archive-repository.js';
import { recordMailboxItemCounts } from '../../archive-data/mailbox-items.js';
import { discoveredName } from '../../db/records.js';
import { counted } from '../../words.js';
import { backgroundLimit, forEachLimit, readAhead } from '../pool.js';
import type { WorkPart } from '../progress.js';
import { includes } from '../repository.js';
import type { Executor, ItemRef } from '../run-context.js';
import { resyncMessage } from './backup.js';
import { archiveMailboxItems, countsMessage, emptyCounts, MAILBOX_ITEM_PARTS } from './mailbox-items.js';
import type { DataPlane } from './plane.js';
import { forEachChannelMessage, forEachChatMessage } from './teams.js';

/**
 * Messages of a page fetched and stored at once: more than a tenant's bound on Graph requests in
 * flight, so that its client always has the next request queued while others are parsed and stored.
 */
const MAIL_CONCURRENCY = 24;
/** Messages recorded in one statement. */
const MAIL_BATCH = 100;
/**
 * Statements recording messages under way while the next are fetched: the database records a page
 * while Graph sends the next (awaited in turn, each waited for the other, and neither was busy).
 */
const RECORDS_IN_FLIGHT = 2;

/** Does the folder path fall under one of the chosen folders (a folder includes its subfolders)? */
function folderChosen(path: string, chosen: readonly string[] | undefined): boolean {
  if (!chosen || chosen.length === 0) return true;
  const p = path.toLowerCase();
  return chosen.some((c) => {
    const f = c.toLowerCase().replace(/\/+$/, '');
    return p === f || p.startsWith(`${f}/`);
  });
}

/**
 * The pages of a message delta, each with the lookup of its messages already archived asked as soon
 * as the page arrives (read ahead, that is while the page before is fetched), not after the page
 * before was recorded: the lookup then waits behind no insert of the database's queue.
 */
async function* withArchived<M extends { id?: string | null }>(
  pages: AsyncIterable<M[]>,
  lookup: (ids: string[]) => Promise<Map<string, ArchivedSize>>,
): AsyncGenerator<{ messages: M[]; archived: Promise<Map<string, ArchivedSize>>; length: number }> {
  for await (const page of pages) {
    const messages = page.filter((m) => !(m as { '@removed'?: unknown })['@removed']);
    const archived = lookup(messages.map((m) => m.id ?? ''));
    // Awaited by the page's turn; a run that stops before it leaves no unhandled rejection.
    archived.catch(() => undefined);
    yield { messages, archived, length: page.length };
  }
}

export function exchangeArchiveExecutor(server: DataPlane): Executor {
  return async (rc) => {
    // Mail goes to the job's storage location; each item records where its blob is.
    const plane = await server.at(rc.job.locationId, rc.tenant.organisationId);
    const graph = await plane.graph(rc.tenant);
    let archived = 0;
    const startedAt = rc.run.started ? new Date(rc.run.started) : undefined;
    const resynced: string[] = [];
    const recording = backgroundLimit(RECORDS_IN_FLIGHT);
    const mailboxItems = emptyCounts();
    // Each mailbox an equal part of the run's work; its folders parts of it by the items Graph says
    // they hold, and after them its calendars, contacts and tasks (mailbox-items.ts) a tenth of it.
    const parts = rc.work.split(rc.job.sources.length);
    // What the job archives of each mailbox: everything, unless it chose.
    const withMail = includes(rc.job, 'mail');
    const withItems = MAILBOX_ITEM_PARTS.some((p) => includes(rc.job, p));
    try {
      for (const [index, mailbox] of rc.job.sources.entries()) {
        rc.checkStopped();
        const whole = parts[index] as WorkPart;
        if (await rc.isKnownFailure(`mailbox:${mailbox}`)) {
          whole.end();
          continue;
        }
        const [part, itemsPart] = whole.split([withMail ? 9 : 0, withItems ? 1 : 0]) as [WorkPart, WorkPart];
        // A guest (#EXT#) account or a user without a mailbox fails here once, for good. A job without
        // mail reads no folder.
        const folders = withMail
          ? await rc.item(
              { key: `mailbox:${mailbox}`, name: mailbox, source: mailbox, wholeSource: true, part },
              async () => {
                const list = [];
                for await (const folder of graph.mailFolders(mailbox)) {
                  if (folderChosen(folder.path, rc.job.folders)) list.push(folder);
                }
                return list;
              },
            )
          : { ok: true as const, value: [] };
        if (!folders.ok) {
          whole.end();
          continue;
        }
        const folderParts = part.split(folders.value.map((f) => 1 + (f.totalItemCount ?? 0)));
        for (const [at, folder] of folders.value.entries()) {
          const folderPart = folderParts[at] as WorkPart;
          const key = `${mailbox}:${folder.id ?? ''}`;
          const pages = graph.messagesDelta(mailbox, folder.id ?? '', await rc.deltaLink(key));
          let readAgain = false;
          const lookups = withArchived(pages, (ids) => plane.archive.archivedMails(rc.tenant.tenantId, mailbox, ids));
          for await (const { messages, archived: lookup, length } of readAhead(lookups)) {
            rc.progress({ total: messages.length, source: mailbox, part: folderPart, more: length });
            // Read again (a resync, or a run resumed after an interruption): not fetched twice.
            const known = await lookup;
            // Fetched and stored messages wait here to be recorded many to a statement.
            let batch: { row: ArchiveRow; ref: ItemRef }[] = [];
            const record = () => {
              const rows = batch;
              batch = [];
              if (rows.length === 0) return Promise.resolve();
              return recording.add(() => recordRows(rows));
            };
            const recordRows = async (rows: { row: ArchiveRow; ref: ItemRef }[]) => {
              let saved: boolean;
              try {
                await plane.archive.saveMails(rows.map((r) => r.row));
                saved = true;
              } catch {
                saved = false;
              }
              for (const { row, ref } of rows) {
                // A batch that failed is recorded item by item, so that only a failing item fails.
                const result = saved ? undefined : await rc.item(ref, () => plane.archive.saveMails([row]));
                if (result && !result.ok) {
                  if (!result.permanent) readAgain = true;
                  continue;
                }
                archived += 1;
                rc.progress({ done: 1, bytes: row.size, source: mailbox, part: folderPart });
              }
            };
            await forEachLimit(messages, MAIL_CONCURRENCY, async (message) => {
              rc.checkStopped();
              const externalId = message.id ?? '';
              const before = known.get(externalId);
              if (before !== undefined) {
                // Archived by this run before an interruption: one of its items again (its counters
                // start over). Archived by an earlier run (read again after a resync): not an item of
                // this run, only its share of the work.
                if (startedAt !== undefined && before.archivedAt >= startedAt) {
                  archived += 1;
                  rc.progress({ done: 1, bytes: before.size, source: mailbox, part: folderPart });
                } else {
                  folderPart.finish(1);
                  rc.progress({ source: mailbox });
                }
                return;
              }
              const ref = {
                key: `mail:${mailbox}/${externalId}`,
                name: message.subject || 'Message without a subject',
                source: mailbox,
                part: folderPart,
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
              if (!result.ok) {
                if (!result.permanent) readAgain = true;
                return;
              }
              batch.push({ row: result.value, ref });
              if (batch.length >= MAIL_BATCH) await record();
            });
            await record();
          }
          // The folder's delta link is kept only once every message before it is recorded, and only
          // when none failed for a reason that may pass (the next run reads those changes again; what
          // is archived already is not fetched twice).
          await recording.settle();
          if (pages.resynced()) {
            // The mailbox by the name discovery knows it by, never its id.
            const name = (await discoveredName(rc.ctx.db, rc.tenant.tenantId, 'exchange', mailbox)) ?? mailbox;
            resynced.push(`${name}: ${folder.path}`);
          }
          const link = pages.deltaLink();
          if (link && !readAgain) await rc.saveDeltaLink(key, link);
          folderPart.end();
        }
        // Mail first: it is what the archive is searched for, and a mailbox's calendars, contacts and
        // tasks are read only once its mail is recorded.
        await recording.settle();
        if (withItems) await archiveMailboxItems(rc, graph, plane, mailbox, itemsPart, mailboxItems);
        else itemsPart.end();
      }
    } finally {
      // Stopped or failed: what was started is done before the run ends (its failure is the run's own).
      await recording.settle().catch(() => undefined);
    }
    await recordMailboxItemCounts(rc.ctx.db, rc.run.run_id, mailboxItems);
    const resync = resynced.length > 0 ? ` ${resyncMessage(resynced, 'mail folder')}` : '';
    if (!withMail) {
      // A job without mail says nothing of messages: none were to be archived.
      return {
        message: countsMessage(mailboxItems).trim() || 'No calendar, contact or To Do item was new or changed.',
      };
    }
    return { message: `Archived ${counted(archived, 'message')}.${countsMessage(mailboxItems)}${resync}` };
  };
}

export function teamsArchiveExecutor(server: DataPlane): Executor {
  return async (rc) => {
    const plane = await server.at(rc.job.locationId, rc.tenant.organisationId);
    const graph = await plane.graph(rc.tenant);
    let archived = 0;
    // The teams and the chosen accounts' chats, each an equal part of the run's work.
    const [teams, chats] = rc.work.split([rc.job.sources.length, (rc.job.chats ?? []).length]) as [WorkPart, WorkPart];
    await forEachChannelMessage(
      rc,
      graph,
      async (teamId, channel, message) => {
        const isNew = await plane.archive.teamsMessage({
          tenantId: rc.tenant.tenantId,
          jobId: rc.job.jobId,
          source: teamId,
          channel: channel.displayName ?? channel.id ?? '',
          externalId: message.id ?? '',
          message,
        });
        // The run's items are what it archived: a message archived by an earlier run is not one.
        if (isNew) archived += 1;
        rc.progress(isNew ? { total: 1, done: 1, source: teamId } : { source: teamId });
      },
      teams,
    );
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
        rc.progress(isNew ? { total: 1, done: 1, source: account } : { source: account });
      },
      chats,
    );
    return { message: `Archived ${counted(archived, 'new Teams message')}.` };
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
    const { items, held, perSource, mailboxItemVersions } = await plane.archive.deleteBefore(
      rc.tenant.tenantId,
      kind,
      before,
      rc.job.sources,
      rc.job.chats ?? [],
      rc.run.run_id,
    );
    // The report's rows: each mailbox, team or chat with the items deleted there, and each chosen
    // mailbox or team without anything old enough with none.
    const reported = new Set<string>();
    for (const s of perSource) {
      reported.add(s.source);
      rc.progress({ total: s.items, done: s.items, bytes: s.bytes, source: s.source });
    }
    for (const source of rc.job.sources) if (!reported.has(source)) rc.progress({ source });
    const kept =
      held > 0 ? ` Kept ${counted(held, 'item')} on legal hold; the report lists ${held === 1 ? 'it' : 'them'}.` : '';
    // The versions of calendars, contacts and tasks count apart: the run's items stay the mail's.
    const versions =
      mailboxItemVersions > 0
        ? ` Deleted ${counted(mailboxItemVersions, 'earlier or deleted version')} of events, contacts and tasks with it.`
        : '';
    return {
      message: `Deleted ${counted(items, 'archived item')} older than ${before.toISOString().slice(0, 10)}.${versions}${kept}`,
    };
  };
}
