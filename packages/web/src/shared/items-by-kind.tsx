/**
 * The items an area protects or a run processed, split by kind (mails, events, contacts, tasks;
 * files, messages, list items, pages) in words: the parts shown beside their total, which is their
 * sum. A figure from a server (or an offline copy saved) before the split has no parts and shows its
 * total alone.
 */
import { Text } from '@chakra-ui/react';
import { ITEM_KINDS, type ItemsByKind, type JobRun } from '@compliance-portal/sdk';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../components/ui/format';

const lists = new Map<string, Intl.ListFormat>();

/** "1,000 mails, 20 events, 3 contacts and 4 tasks", in the interface language; undefined without parts. */
export function itemsByKindText(kinds: ItemsByKind | undefined, t: TFunction, language: string): string | undefined {
  if (!kinds) return undefined;
  const parts = ITEM_KINDS.flatMap((kind) => {
    const count = kinds[kind];
    return count === undefined ? [] : [t(`figures:kinds.${kind}`, { count, n: formatNumber(count, language) })];
  });
  if (parts.length === 0) return undefined;
  let list = lists.get(language);
  if (!list) {
    list = new Intl.ListFormat(language, { type: 'conjunction' });
    lists.set(language, list);
  }
  return list.format(parts);
}

/** The sum of the parts. */
export function sumOfKinds(kinds: ItemsByKind): number {
  return ITEM_KINDS.reduce((sum, kind) => sum + (kinds[kind] ?? 0), 0);
}

/** What a run processed: the sum of its kinds where it gives them, else its items. */
export function runItems(run: Pick<JobRun, 'itemsProcessed' | 'itemsByKind'>): number {
  return run.itemsByKind ? sumOfKinds(run.itemsByKind) : run.itemsProcessed;
}

/** "1,234 (1,000 mails, 200 events, 30 contacts and 4 tasks)", or the total alone without parts. */
export function totalWithKinds(total: number, kinds: ItemsByKind | undefined, t: TFunction, language: string): string {
  const parts = itemsByKindText(kinds, t, language);
  const n = formatNumber(total, language);
  return parts ? t('figures:kinds.total', { total: n, parts }) : n;
}

/**
 * A list's cell: the total, and under it the parts it is the sum of when there are several (a row of
 * one kind, a OneDrive account's files, says no more than its column).
 */
export function ItemsCell({ total, kinds }: { total: number; kinds: ItemsByKind | undefined }) {
  const { t, i18n } = useTranslation();
  const several = kinds && ITEM_KINDS.filter((kind) => kinds[kind] !== undefined).length > 1;
  const parts = several ? itemsByKindText(kinds, t, i18n.language) : undefined;
  return (
    <>
      {formatNumber(total, i18n.language)}
      {parts ? (
        <Text as="span" display="block" fontSize="xs" color="fg.muted">
          {parts}
        </Text>
      ) : null}
    </>
  );
}
