/**
 * Apollo data management: the file manager's calls. An addition to the portal's original
 * contract (which names the /compliance screen without its calls). They read the
 * tenant's SharePoint sites and OneDrives live from Microsoft 365: libraries, folders and files, a
 * file's versions with those a clean-up rule would remove, and what a clean-up of a selection frees.
 */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import { CleanupRule } from './jobs.js';

/** Schema of the workload a data-management call reads. */
export const DataManagementApplication = s.oneOfStrings(['sharepoint', 'onedrive']);
/**
 * Where the file manager reads files and their versions: SharePoint sites (`sharepoint`) or OneDrive
 * accounts (`onedrive`).
 */
export type DataManagementApplication = s.Static<typeof DataManagementApplication>;

/** Schema of the body of `POST /api/{tenantId}/data-management/browse`. */
export const BrowseRequest = s.object({
  application: DataManagementApplication,
  sourceId: s.string({ minLength: 1, description: 'The site, or the OneDrive account.' }),
  nodeId: s.string({
    minLength: 1,
    description: 'root (a site: its libraries; a OneDrive: its top), drive:{driveId}, or {driveId}:{itemId}.',
  }),
  rule: CleanupRule,
  page: s.optional(s.integer({ minimum: 1 })),
  pageSize: s.optional(s.integer({ minimum: 1, maximum: 200 })),
});
/**
 * Which node of a site or OneDrive to list (`root` for a site's libraries or a OneDrive's top folder,
 * `drive:{driveId}` for a library, `{driveId}:{itemId}` for a folder), the clean-up rule to count
 * files' removable versions under, and the page (`pageSize` at most 200).
 */
export type BrowseRequest = s.Static<typeof BrowseRequest>;

/** Schema of one entry of a browse answer. */
export const FileNode = s.object({
  nodeId: s.string(),
  kind: s.oneOfStrings(['library', 'folder', 'file']),
  name: s.string(),
  /** `{driveId}:{path}`: what a clean-up job's `paths` takes. */
  path: s.string({ description: '{driveId}:/folder/name, as a clean-up job takes it.' }),
  sizeBytes: s.integer({ minimum: 0, description: 'The current version (a folder: its content).' }),
  modified: s.nullable(s.dateTime()),
  versions: s.nullable(s.integer({ minimum: 0, description: 'Files only.' })),
  eligibleVersions: s.nullable(s.integer({ minimum: 0, description: 'Files only: under the rule.' })),
  reclaimableBytes: s.nullable(s.integer({ minimum: 0, description: 'Files only: what they take.' })),
});
/**
 * A library, folder or file in the file manager, read live from Microsoft 365: its name, its `path` in
 * the form a clean-up job's `paths` and a preview take, its size in bytes (a folder: its content) and
 * last change. For files only, the version counts and the bytes the versions removable under the rule
 * take; null for libraries and folders.
 */
export type FileNode = s.Static<typeof FileNode>;

/** Schema of the answer of `POST /api/{tenantId}/data-management/browse`. */
export const BrowseResult = s.object({
  items: s.array(FileNode),
  total: s.integer({ minimum: 0 }),
  page: s.integer({ minimum: 1 }),
  pageSize: s.integer({ minimum: 1 }),
});
/** One page of a node's children ({@link FileNode}s), with the total over all pages. */
export type BrowseResult = s.Static<typeof BrowseResult>;

/** Schema of the body of `POST /api/{tenantId}/data-management/versions`. */
export const VersionsRequest = s.object({
  application: DataManagementApplication,
  sourceId: s.string({ minLength: 1 }),
  nodeId: s.string({ minLength: 1, description: '{driveId}:{itemId} of a file.' }),
  rule: CleanupRule,
});
/**
 * The file (`{driveId}:{itemId}` in a site or OneDrive) whose versions to list, and the clean-up rule
 * that marks which of them would be removed.
 */
export type VersionsRequest = s.Static<typeof VersionsRequest>;

/** Schema of one version in the answer of `POST /api/{tenantId}/data-management/versions`. */
export const FileVersion = s.object({
  versionId: s.string(),
  modified: s.nullable(s.dateTime()),
  sizeBytes: s.integer({ minimum: 0 }),
  current: s.boolean('The current version is never removed.'),
  eligible: s.boolean('Removed by a clean-up under the rule.'),
});
/**
 * One version of a file: when it was saved, its size in bytes, whether it is the current version (never
 * removed) and whether a clean-up under the rule would remove it (`eligible`).
 */
export type FileVersion = s.Static<typeof FileVersion>;

/** Schema of the body of `POST /api/{tenantId}/data-management/preview`. */
export const CleanupPreviewRequest = s.object({
  application: DataManagementApplication,
  sourceId: s.string({ minLength: 1 }),
  paths: s.array(s.string({ minLength: 1 }), {
    minItems: 1,
    maxItems: 1000,
    description: '{driveId}:{path} of files and folders (a folder counts with all below it).',
  }),
  rule: CleanupRule,
});
/**
 * The files and folders of one site or OneDrive a clean-up would cover (1 to 1000 `{driveId}:{path}`
 * entries; a folder counts with everything below it) and the rule it would apply.
 */
export type CleanupPreviewRequest = s.Static<typeof CleanupPreviewRequest>;

/** Schema of the answer of `POST /api/{tenantId}/data-management/preview`. */
export const CleanupPreview = s.object({
  files: s.integer({ minimum: 0 }),
  versions: s.integer({ minimum: 0 }),
  eligibleVersions: s.integer({ minimum: 0 }),
  reclaimableBytes: s.integer({ minimum: 0 }),
  pricePerGbMonth: s.number({ minimum: 0 }),
  currency: s.string({ minLength: 3, maxLength: 3 }),
  monthlySaving: s.number({ minimum: 0 }),
});
/**
 * What a clean-up of the chosen files and folders would do now: files and versions covered, versions
 * removed, bytes freed, and the monthly saving at the tenant's price per GB and month (in `currency`).
 * Nothing is removed; create a `versionCleanup` job for that.
 */
export type CleanupPreview = s.Static<typeof CleanupPreview>;

/**
 * The catalogue entries of the file manager: `browse`, `versions` and `preview` under
 * `/api/{tenantId}/data-management/`. They only read, so they are retried like GETs. {@link
 * dataManagementApi} binds them.
 */
export const dataManagementEndpoints = defineResource('apollo', 'dataManagement', {
  browse: {
    method: 'POST',
    // Reads only: retried like a GET.
    idempotent: true,
    path: '/api/{tenantId}/data-management/browse',
    scope: { tenant: 'path' },
    summary: "A node's libraries, folders and files, files with their versions under a rule",
    body: BrowseRequest,
    response: BrowseResult,
  },
  versions: {
    method: 'POST',
    // Reads only: retried like a GET.
    idempotent: true,
    path: '/api/{tenantId}/data-management/versions',
    scope: { tenant: 'path' },
    summary: "A file's versions, with those a clean-up rule removes",
    body: VersionsRequest,
    response: s.array(FileVersion),
  },
  preview: {
    method: 'POST',
    // Reads only: retried like a GET.
    idempotent: true,
    path: '/api/{tenantId}/data-management/preview',
    scope: { tenant: 'path' },
    summary: 'What a clean-up of chosen files and folders would remove and free',
    body: CleanupPreviewRequest,
    response: CleanupPreview,
  },
});

/**
 * Binds the file manager to a transport: a node's libraries, folders and files, a file's versions, and
 * the preview of a clean-up, each under a clean-up rule. The same methods as
 * `client.apollo.dataManagement`.
 */
/*#__NO_SIDE_EFFECTS__*/
export function dataManagementApi(transport: Transport) {
  return bindResource(transport, dataManagementEndpoints);
}
