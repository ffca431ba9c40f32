/**
 * Apollo data management: the file manager's calls. Not in product-spec.md section 7 (the
 * /compliance screen is declared without its calls); the reference server adds these. They read the
 * tenant's SharePoint sites and OneDrives live from Microsoft 365: libraries, folders and files, a
 * file's versions with those a clean-up rule would remove, and what a clean-up of a selection frees.
 */
import { bindResource } from '../../core/call.js';
import { defineResource } from '../../core/endpoint.js';
import * as s from '../../core/schema.js';
import type { Transport } from '../../core/transport.js';
import { CleanupRule } from './jobs.js';

export const DataManagementApplication = s.oneOfStrings(['sharepoint', 'onedrive']);
export type DataManagementApplication = s.Static<typeof DataManagementApplication>;

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
export type BrowseRequest = s.Static<typeof BrowseRequest>;

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
export type FileNode = s.Static<typeof FileNode>;

export const BrowseResult = s.object({
  items: s.array(FileNode),
  total: s.integer({ minimum: 0 }),
  page: s.integer({ minimum: 1 }),
  pageSize: s.integer({ minimum: 1 }),
});
export type BrowseResult = s.Static<typeof BrowseResult>;

export const VersionsRequest = s.object({
  application: DataManagementApplication,
  sourceId: s.string({ minLength: 1 }),
  nodeId: s.string({ minLength: 1, description: '{driveId}:{itemId} of a file.' }),
  rule: CleanupRule,
});
export type VersionsRequest = s.Static<typeof VersionsRequest>;

export const FileVersion = s.object({
  versionId: s.string(),
  modified: s.nullable(s.dateTime()),
  sizeBytes: s.integer({ minimum: 0 }),
  current: s.boolean('The current version is never removed.'),
  eligible: s.boolean('Removed by a clean-up under the rule.'),
});
export type FileVersion = s.Static<typeof FileVersion>;

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
export type CleanupPreviewRequest = s.Static<typeof CleanupPreviewRequest>;

export const CleanupPreview = s.object({
  files: s.integer({ minimum: 0 }),
  versions: s.integer({ minimum: 0 }),
  eligibleVersions: s.integer({ minimum: 0 }),
  reclaimableBytes: s.integer({ minimum: 0 }),
  pricePerGbMonth: s.number({ minimum: 0 }),
  currency: s.string({ minLength: 3, maxLength: 3 }),
  monthlySaving: s.number({ minimum: 0 }),
});
export type CleanupPreview = s.Static<typeof CleanupPreview>;

export const dataManagementEndpoints = defineResource('apollo', 'dataManagement', {
  browse: {
    method: 'POST',
    // Reads only: retried like a GET.
    idempotent: true,
    path: '/api/{tenantId}/data-management/browse',
    summary: "A node's libraries, folders and files, files with their versions under a rule",
    body: BrowseRequest,
    response: BrowseResult,
  },
  versions: {
    method: 'POST',
    // Reads only: retried like a GET.
    idempotent: true,
    path: '/api/{tenantId}/data-management/versions',
    summary: "A file's versions, with those a clean-up rule removes",
    body: VersionsRequest,
    response: s.array(FileVersion),
  },
  preview: {
    method: 'POST',
    // Reads only: retried like a GET.
    idempotent: true,
    path: '/api/{tenantId}/data-management/preview',
    summary: 'What a clean-up of chosen files and folders would remove and free',
    body: CleanupPreviewRequest,
    response: CleanupPreview,
  },
});

/*#__NO_SIDE_EFFECTS__*/
export function dataManagementApi(transport: Transport) {
  return bindResource(transport, dataManagementEndpoints);
}
