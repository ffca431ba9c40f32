/** The value lists the SDK exports for forms and lists are the very values its schemas accept. */
import { describe, expect, it } from 'vitest';
import {
  CONFLICT_POLICIES,
  DOCUMENT_TYPES,
  JOB_STATUSES,
  PERMISSION_AREAS,
  RESTORE_TARGETS,
  SUPPORT_AREAS,
} from '../src/index.js';
import { PermissionArea } from '../src/resources/apollo/configuration.js';
import { RestoreSpec } from '../src/resources/apollo/jobs.js';
import { SupportArea } from '../src/resources/apollo/support.js';
import { ConflictPolicy, JobStatus } from '../src/resources/common.js';
import { DocumentType } from '../src/resources/legacy/files.js';

describe('exported value lists', () => {
  it.each([
    ['SUPPORT_AREAS', SUPPORT_AREAS, SupportArea.enum],
    ['CONFLICT_POLICIES', CONFLICT_POLICIES, ConflictPolicy.enum],
    ['JOB_STATUSES', JOB_STATUSES, JobStatus.enum],
    ['DOCUMENT_TYPES', DOCUMENT_TYPES, DocumentType.enum],
    ['RESTORE_TARGETS', RESTORE_TARGETS, RestoreSpec.properties?.target?.enum],
    ['PERMISSION_AREAS', PERMISSION_AREAS, PermissionArea.enum],
  ] as const)('%s is the enum of its schema', (_name, values, schemaValues) => {
    expect(schemaValues).toBe(values);
    expect(new Set(values).size).toBe(values.length);
  });
});
