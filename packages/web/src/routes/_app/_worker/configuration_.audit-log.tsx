import { createFileRoute } from '@tanstack/react-router';
import { requireRole } from '../../../app/guards';
import { loadQueries } from '../../../app/loaders';
import { routeRoles } from '../../../components/layout/navigation';
import { auditChainQuery, auditEntriesQuery, auditFiltersOf } from '../../../features/audit-log/api/queries';
import { AUDIT_LIST, AuditLogPage } from '../../../features/audit-log/audit-log-page';
import { listSearchValidator } from '../../../shared/url-state';

// Made outside the route's options: inside them TypeScript infers the search's type as empty.
const auditLogSearch = listSearchValidator({
  actor: [],
  action: [],
  outcome: ['success', 'failure'],
  from: [],
  to: [],
});

export const Route = createFileRoute('/_app/_worker/configuration_/audit-log')({
  beforeLoad: ({ context }) => requireRole(context.session, routeRoles['/configuration/audit-log'] ?? []),
  validateSearch: auditLogSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => {
    const organisationId = context.worker.clientId;
    if (!organisationId) return;
    const state = { page: deps.page ?? 1, pageSize: deps.pageSize ?? AUDIT_LIST.pageSize ?? 25 };
    return loadQueries(context.queryClient, [
      auditEntriesQuery(context.api, organisationId, state, auditFiltersOf(deps)),
      auditChainQuery(context.api, organisationId),
    ]);
  },
  component: AuditLogPage,
});
