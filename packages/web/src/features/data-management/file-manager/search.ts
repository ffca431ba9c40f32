import type { DataManagementApplication } from '@compliance-portal/sdk';
import { type ListSearch, listSearchValidator } from '../../../shared/url-state';

/**
 * What the file manager keeps in the address: the application, the site or OneDrive being browsed
 * (its id, and its name for the path shown), the folders opened down to the current one, and the
 * state of the list on screen (the sites and OneDrives, or the folder's content). A reload, Back and
 * a shared link open the file manager where it was.
 */

const APPLICATIONS = ['sharepoint', 'onedrive'] as const satisfies readonly DataManagementApplication[];
export const DEFAULT_APPLICATION: DataManagementApplication = 'sharepoint';
/** The file manager's route, whose address this is. */
export const FILE_MANAGER_ROUTE = '/_app/_worker/compliance/';

/** The sites or OneDrives to choose from: 10 a page, by name. */
export const SOURCE_LIST = { pageSize: 10, sort: 'displayName' } as const;
/** A folder's content: 25 a page, in the server's order. */
export const FILE_LIST = { pageSize: 25 } as const;

/** A folder opened on the way down from the top of a site or OneDrive. */
interface FolderStep {
  id: string;
  name: string;
}

export interface FileManagerSearch extends ListSearch {
  application?: DataManagementApplication;
  source?: string;
  sourceName?: string;
  /** The folders opened, from the top down to the current one; none at the top. */
  path?: FolderStep[];
}

const MAX_DEPTH = 100;
const MAX_TEXT = 500;

const isText = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= MAX_TEXT;

/** The folders of an address, or nothing when one of them is not a folder step. */
function folderSteps(raw: unknown): FolderStep[] | undefined {
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_DEPTH) return undefined;
  const steps: FolderStep[] = [];
  for (const step of raw) {
    if (!step || typeof step !== 'object') return undefined;
    const { id, name } = step as Record<string, unknown>;
    if (!isText(id) || !isText(name)) return undefined;
    steps.push({ id, name });
  }
  return steps;
}

const listAndFilters = listSearchValidator({ application: APPLICATIONS, source: [], sourceName: [] });

/** The route's `validateSearch`: each parameter checked, a wrong one left out. */
export function validateFileManagerSearch(raw: Record<string, unknown>): FileManagerSearch {
  const { application, source, sourceName, ...list } = listAndFilters(raw);
  const path = source ? folderSteps(raw.path) : undefined;
  return {
    ...list,
    ...(application ? { application: application as DataManagementApplication } : {}),
    ...(source ? { source } : {}),
    ...(source && sourceName ? { sourceName } : {}),
    ...(path ? { path } : {}),
  };
}
