/**
 * The SDK's main entry: {@link createClient} (or {@link createTransport} with the resource functions
 * such as {@link tenantsApi}, to bind only what is used), the endpoint catalogue ({@link endpoints}),
 * every request and answer schema with its type, the error classes a call rejects with, and the
 * user-facing error messages in English and German. Test helpers are in `@compliance-portal/sdk/testing`,
 * the OpenAPI document in `@compliance-portal/sdk/openapi`.
 *
 * @module
 */
export { type AnyEndpoint, type EndpointId, endpointById, endpoints } from './catalogue.js';
export { createClient, type PortalClient } from './client.js';
export { callEndpoint, type EndpointMethod, type ResourceMethods } from './core/call.js';
export { type ErrorCode, errorTexts, isErrorCode } from './core/codes.js';
export { saveDownload } from './core/download.js';
export type {
  Access,
  Api,
  AuthMode,
  DownloadResult,
  Endpoint,
  EndpointArgs,
  EndpointResult,
  HttpMethod,
  PathParamNames,
  Refusals,
  ResponseKind,
  Scope,
  ScopeSource,
  WorkerScope,
  WorkerTenantScope,
} from './core/endpoint.js';
export {
  ApiError,
  AuthenticationError,
  apiErrorFor,
  BadRequestError,
  bodyCode,
  bodyDetail,
  bodyMessage,
  ConflictError,
  type ErrorContext,
  InternalServerError,
  NetworkError,
  NotFoundError,
  PermissionDeniedError,
  PortalError,
  parseRetryAfter,
  RateLimitError,
  redactUrl,
  TimeoutError,
} from './core/errors.js';
export { LANGUAGES, type Language } from './core/languages.js';
export {
  type ErrorInput,
  type ErrorMessageKey,
  englishErrorMessages,
  errorMessage,
  errorMessageKey,
  errorMessages,
  germanErrorMessages,
  statusMessageKey,
  type TranslatedError,
  textMessageKey,
} from './core/messages.js';
export type { JsonSchema, Schema, Static } from './core/schema.js';
export { REQUEST_BOUNDS } from './core/schema.js';
export { loginFailureCodes, type SignInRefusalCode, secondStepTexts } from './core/sign-in-refusals.js';
export {
  apolloBasePaths,
  type ClientOptions,
  createTransport,
  DEFAULT_API_KEY_HEADER,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type Environment,
  fileNameFromDisposition,
  type HelperOptions,
  LEGACY_BASE_PATH,
  type Query,
  type QueryValue,
  type RequestOptions,
  type SdkError,
  type Transport,
  type TransportRequest,
} from './core/transport.js';
export { EDISCOVERY_LIMITS, isAllowedFileName, MAX_FILE_NAME_LENGTH, TRIAL_LIMITS } from './limits.js';
export type * from './resources/apollo/archive.js';
export { archiveApi } from './resources/apollo/archive.js';
export type * from './resources/apollo/audit.js';
export { auditApi } from './resources/apollo/audit.js';
export type * from './resources/apollo/auth.js';
export { authApi } from './resources/apollo/auth.js';
export type * from './resources/apollo/configuration.js';
export {
  configurationApi,
  isMicrosoft365FailureCode,
  MICROSOFT365_FAILURE_CODES,
  microsoft365FailureOf,
  PERMISSION_AREAS,
} from './resources/apollo/configuration.js';
export type * from './resources/apollo/dashboards.js';
export { DASHBOARD_PERIOD_DAYS, DASHBOARD_TOP, dashboardsApi } from './resources/apollo/dashboards.js';
export type * from './resources/apollo/data-management.js';
export { dataManagementApi } from './resources/apollo/data-management.js';
export type * from './resources/apollo/discovery.js';
export { discoveryApi } from './resources/apollo/discovery.js';
export type * from './resources/apollo/ediscovery.js';
export { ediscoveryApi } from './resources/apollo/ediscovery.js';
export type * from './resources/apollo/jobs.js';
export { jobsApi, RESTORE_TARGETS } from './resources/apollo/jobs.js';
export type * from './resources/apollo/locations.js';
export { locationsApi } from './resources/apollo/locations.js';
export type * from './resources/apollo/monitoring.js';
export { monitoringApi } from './resources/apollo/monitoring.js';
export type * from './resources/apollo/reporting.js';
export { reportingApi } from './resources/apollo/reporting.js';
export type * from './resources/apollo/support.js';
export { SUPPORT_AREAS, supportApi } from './resources/apollo/support.js';
export type * from './resources/apollo/tenants.js';
export { tenantsApi } from './resources/apollo/tenants.js';
export type * from './resources/common.js';
export {
  CONFLICT_POLICIES,
  ITEM_KINDS,
  JOB_STATUSES,
  MAILBOX_PARTS,
  MAX_ACCOUNTS_PAGE_SIZE,
  RUN_STATES,
  SITE_PARTS,
} from './resources/common.js';
export type * from './resources/legacy/auth.js';
export { legacyAuthApi, SIGN_IN_EVENT_KINDS } from './resources/legacy/auth.js';
export type * from './resources/legacy/email.js';
export { emailApi } from './resources/legacy/email.js';
export type * from './resources/legacy/files.js';
export { DOCUMENT_TYPES, filesApi, MAX_UPLOAD_BYTES } from './resources/legacy/files.js';
export type * from './resources/legacy/invitations.js';
export { invitationsApi } from './resources/legacy/invitations.js';
export type * from './resources/legacy/jobs.js';
export { legacyJobsApi } from './resources/legacy/jobs.js';
export { legacyLocationsApi } from './resources/legacy/locations.js';
export type * from './resources/legacy/mailboxes.js';
export { mailboxesApi } from './resources/legacy/mailboxes.js';
export type * from './resources/legacy/proxy-rights.js';
export { proxyRightsApi } from './resources/legacy/proxy-rights.js';
export type * from './resources/legacy/sessions.js';
export { sessionsApi } from './resources/legacy/sessions.js';
export type * from './resources/legacy/teams.js';
export { teamsApi } from './resources/legacy/teams.js';
export type * from './resources/legacy/user.js';
export { MAIL_LANGUAGES, USER_STATUSES, userApi } from './resources/legacy/user.js';
export type * from './resources/legacy/workers.js';
export { FLEET_AREAS, FLEET_ISSUES, FLEET_SORTS, workersApi } from './resources/legacy/workers.js';
