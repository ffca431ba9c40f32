/**
 * How much of a run's work is done: the share its progress (0 to 99 while it runs, 100 only once it
 * finished) is made of. Counting items done over items found cannot say it: a run finds its items as
 * it goes (a drive page by page, a mailbox folder by folder), so after its first small folder it had
 * done everything it knew of, showed 99 %, and fell back when the next folder was listed.
 *
 * The work is a tree of parts instead, split as far as it is known: a run into its sources, a source
 * into its drives, mail folders (weighed by the items Graph says they hold), channels or chats once
 * they are listed; a part that is not listed yet counts as not begun. A part's items count against the
 * items found in it, but while a listing is read page by page, a page more (`more`: as many items as
 * the last page held, folders and removed items included) is taken to be still to come, and the part
 * counts as at most 90 % done: a part whose end is not known is never nearly done. A
 * part is complete when its work ends (its listing read and its items done, or its source failed as
 * a whole, or done by an earlier attempt of the run).
 */
/** The most a part whose listing goes on counts as done. */
const OPEN_AT_MOST = 0.9;

export class WorkPart {
  private parts: { part: WorkPart; weight: number }[] | undefined;
  private found = 0;
  private finished = 0;
  /** Items that may still come (a listing under way); undefined once its end is known. */
  private pending: number | undefined;
  private complete = false;

  /** `changed` is called after every change (the run context writes progress from it, at most every few hundred ms). */
  constructor(private readonly changed: () => void) {}

  /**
   * Splits this part into `n` equal parts, or into parts of the given weights (such as the items a
   * folder holds); no parts: this part is complete. Its own items no longer count.
   */
  split(parts: number | readonly number[]): WorkPart[] {
    const weights = typeof parts === 'number' ? Array.from({ length: parts }, () => 1) : parts;
    this.parts = weights.map((weight) => ({ part: new WorkPart(this.changed), weight: Math.max(0, weight) }));
    if (this.parts.length === 0) this.complete = true;
    this.changed();
    return this.parts.map((p) => p.part);
  }

  /**
   * Items found in this part; `more`: its listing goes on (a page of a delta query, more pages may
   * follow), and about this many items may come with the next page.
   */
  add(items: number, more?: number): void {
    if (items === 0 && more === this.pending) return;
    this.found += items;
    this.pending = more === undefined ? undefined : Math.max(1, more);
    this.changed();
  }

  /** Items of this part finished: done, failed or skipped. */
  finish(items = 1): void {
    if (items === 0) return;
    this.finished += items;
    this.changed();
  }

  /** The part's work ended, whatever its items said. */
  end(): void {
    if (this.complete) return;
    this.complete = true;
    this.changed();
  }

  /** The share of this part's work done, from 0 to 1. */
  get share(): number {
    if (this.complete) return 1;
    if (this.parts) {
      const total = this.parts.reduce((sum, p) => sum + p.weight, 0);
      if (total === 0) return this.parts.reduce((sum, p) => sum + p.part.share, 0) / this.parts.length;
      return this.parts.reduce((sum, p) => sum + p.weight * p.part.share, 0) / total;
    }
    if (this.pending !== undefined) return Math.min(OPEN_AT_MOST, this.finished / (this.found + this.pending));
    return this.found === 0 ? 0 : Math.min(1, this.finished / this.found);
  }
}

/** A run's progress from the share of its work done: 0 to 99, so that 100 means finished and nothing else. */
export const progressOf = (work: WorkPart) => Math.min(99, Math.floor(100 * work.share));
