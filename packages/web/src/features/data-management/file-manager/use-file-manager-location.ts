import type { DataManagementApplication, DiscoveredSource, FileNode } from '@compliance-portal/sdk';
import { getRouteApi } from '@tanstack/react-router';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_APPLICATION, FILE_MANAGER_ROUTE, type FileManagerSearch } from './search';

/** The site or OneDrive being browsed, as far as the file manager needs it. */
export interface BrowsedSource {
  sourceId: string;
  displayName: string;
}

/** A step of the path shown above a folder's content: the top of the source, then each folder opened. */
export interface TrailStep {
  nodeId: string;
  name: string;
}

const route = getRouteApi(FILE_MANAGER_ROUTE);

/** The list parameters: left out when the list on screen changes (sources ↔ a source's folders). */
const LIST_KEYS = ['page', 'pageSize', 'sort', 'order', 'search'] as const;

const isEmpty = (value: unknown) => value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/** The search without empty values, so that the address holds only what is set. */
function compact(search: FileManagerSearch): FileManagerSearch {
  return Object.fromEntries(Object.entries(search).filter(([, value]) => !isEmpty(value))) as FileManagerSearch;
}

/**
 * Where the file manager is, read from the address: the application, the source browsed, the folders
 * opened. Choosing a source and opening a folder add an entry to the history (Back goes up again);
 * choosing another application replaces it, as a list filter does.
 */
export function useFileManagerLocation() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const go = useCallback(
    (change: (previous: FileManagerSearch) => FileManagerSearch, replace = false) =>
      void navigate({ search: (previous) => compact(change(previous)), replace }),
    [navigate],
  );

  const application = search.application ?? DEFAULT_APPLICATION;
  const source: BrowsedSource | null = search.source
    ? { sourceId: search.source, displayName: search.sourceName ?? search.source }
    : null;
  const trail: TrailStep[] = [
    { nodeId: 'root', name: t('dataManagement:root') },
    ...(search.path ?? []).map((step) => ({ nodeId: step.id, name: step.name })),
  ];

  /** Another application: its sources from the first page; the source browsed is left. */
  const setApplication = (next: DataManagementApplication) =>
    go((previous) => {
      const kept: FileManagerSearch = { ...previous, page: undefined };
      // The folder's list state does not carry over to the sources.
      if (previous.source) for (const key of LIST_KEYS) delete kept[key];
      return {
        ...kept,
        application: next === DEFAULT_APPLICATION ? undefined : next,
        source: undefined,
        sourceName: undefined,
        path: undefined,
      };
    }, true);
  /** Browses a source from its top, its content from the first page. */
  const chooseSource = (chosen: DiscoveredSource) =>
    go((previous) => ({ application: previous.application, source: chosen.sourceId, sourceName: chosen.displayName }));
  /** Back to the sources, as they open. */
  const leaveSource = () => go((previous) => ({ application: previous.application }));
  /** Opens a folder of the current one, from its first page. */
  const openFolder = (node: Pick<FileNode, 'nodeId' | 'name'>) =>
    go((previous) => ({
      ...previous,
      page: undefined,
      path: [...(previous.path ?? []), { id: node.nodeId, name: node.name }],
    }));
  /**
   * Goes up to a step of the trail (0: the top of the source), from its first page. The current
   * folder itself only goes back to its first page: no new history entry.
   */
  const goUp = (index: number) =>
    go(
      (previous) => ({ ...previous, page: undefined, path: previous.path?.slice(0, index) }),
      index >= trail.length - 1,
    );

  return { application, source, trail, setApplication, chooseSource, leaveSource, openFolder, goUp };
}
