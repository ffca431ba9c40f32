import {
  ApiError,
  type CleanupPreview,
  type CleanupRule,
  type DataManagementApplication,
  type FileNode,
} from '@compliance-portal/sdk';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../components/ui/format';
import { showToast } from '../../../components/ui/toaster';
import { useServerAction } from '../../../offline/online';
import { useApi } from '../../../shared/tenant';
import { useUrlListState } from '../../../shared/url-state';
import { usePreviewCleanup, useStartCleanup } from '../api/mutations';
import { browseQuery } from '../api/queries';
import { PLACEHOLDER_RULE } from './rule';
import { FILE_LIST, FILE_MANAGER_ROUTE } from './search';
import { type BrowsedSource, useFileManagerLocation } from './use-file-manager-location';

/**
 * The state of browsing a source: the folder and the page on screen (in the address), the items
 * selected across folders, the file whose versions are shown, and the clean-up of the selection
 * (a preview of what it removes, then the job on confirmation).
 */
export function useBrowserState({
  tenantId,
  application,
  source,
  rule,
}: {
  tenantId: string;
  application: DataManagementApplication;
  source: BrowsedSource;
  rule: CleanupRule | null;
}) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const { trail, openFolder, goUp } = useFileManagerLocation();
  const [list, setList] = useUrlListState(FILE_MANAGER_ROUTE, FILE_LIST);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [file, setFile] = useState<FileNode | null>(null);
  const [preview, setPreview] = useState<CleanupPreview | null>(null);
  const cleanUpAction = useServerAction(selected.size === 0);
  const nodeId = trail.at(-1)?.nodeId ?? 'root';
  const browse = useQuery(
    browseQuery(api, tenantId, application, source.sourceId, nodeId, rule, list.page, list.pageSize),
  );

  /** A file shows its versions; a folder or library opens. */
  const open = (node: FileNode) => (node.kind === 'file' ? setFile(node) : openFolder(node));
  const paths = [...selected];
  const cleanupRule = rule ?? PLACEHOLDER_RULE;
  const previewing = usePreviewCleanup(api, tenantId, setPreview);
  const cleanUp = useStartCleanup(api, tenantId, (job) => {
    setPreview(null);
    setSelected(new Set());
    showToast('success', t('dataManagement:started', { name: job.name }));
  });
  /** Asks what cleaning up the selection would remove; a failure is said where it was asked, with its cause. */
  const askPreview = () => previewing.mutate({ application, sourceId: source.sourceId, paths, rule: cleanupRule });
  /** Starts the clean-up of the selection the preview showed, as a job run once. */
  const startCleanUp = () =>
    cleanUp.mutate({
      name: t('dataManagement:jobName', {
        source: source.displayName,
        date: formatDate(new Date().toISOString(), i18n.language),
      }).slice(0, 120),
      type: 'versionCleanup',
      application,
      sources: [source.sourceId],
      paths,
      cleanupRule,
      recurrence: { kind: 'afterCreation' },
    });
  /** A refusal in the catalogue's words; null for anything else. */
  const failure = (error: unknown) => (error instanceof ApiError ? t(`apiErrors:${error.messageKey}`) : null);

  return {
    trail,
    goUp,
    list,
    setList,
    browse,
    open,
    selected,
    setSelected,
    file,
    closeFile: () => setFile(null),
    preview,
    closePreview: () => setPreview(null),
    previewing,
    askPreview,
    cleanUp,
    startCleanUp,
    cleanUpAction,
    failure,
  };
}
export type BrowserState = ReturnType<typeof useBrowserState>;
