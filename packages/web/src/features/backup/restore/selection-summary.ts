import type { DiscoveryNode } from '@compliance-portal/sdk';
import { useTranslation } from 'react-i18next';

/**
 * What a restore's selection holds, counted as the restore counts it: files and folders (and
 * messages) as items, a list as its items, a list item as one, the pages group as its pages, a page
 * as one.
 */
function selectionCounts(selected: ReadonlyMap<string, DiscoveryNode>) {
  let items = 0;
  let listItems = 0;
  let pages = 0;
  for (const node of selected.values()) {
    if (node.kind === 'listItem') listItems += 1;
    else if (node.kind === 'list') listItems += node.itemCount ?? 0;
    else if (node.kind === 'page') pages += 1;
    else if (node.kind === 'pages') pages += node.itemCount ?? 0;
    else items += 1;
  }
  // Only empty lists chosen: still something, said as the lists it is.
  if (items + listItems + pages === 0) items = selected.size;
  return { items, listItems, pages };
}

/** The selection in words, "3 items, 2 list items and 1 page", each part only when it counts. */
export function useSelectionText() {
  const { t, i18n } = useTranslation();
  return (selected: ReadonlyMap<string, DiscoveryNode>) => {
    const { items, listItems, pages } = selectionCounts(selected);
    const parts = [
      ...(items > 0 || (listItems === 0 && pages === 0) ? [t('backup:selectionParts.items', { count: items })] : []),
      ...(listItems > 0 ? [t('backup:selectionParts.listItems', { count: listItems })] : []),
      ...(pages > 0 ? [t('backup:selectionParts.pages', { count: pages })] : []),
    ];
    return new Intl.ListFormat(i18n.language, { style: 'long', type: 'conjunction' }).format(parts);
  };
}
