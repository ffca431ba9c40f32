import { sharedKeys } from '../../../shared/api/keys';

/**
 * Query keys of the audit log: its pages and its chain check, under the organisation's audit-log key,
 * which every audited change invalidates.
 */
export const auditLogKeys = {
  entries: (organisationId: string, query: object) =>
    [...sharedKeys.auditLog(organisationId), 'entries', query] as const,
  chain: (organisationId: string) => [...sharedKeys.auditLog(organisationId), 'chain'] as const,
};
