/**
 * @compliance-portal/m365-simulator: a Microsoft Graph v1.0 and Entra ID token endpoint double over
 * generated, deterministic Microsoft 365 tenants, served over https with a CA of its own.
 */
export {
  CONTROL_HEADER,
  CONTROL_KEY_ENV,
  parseThrottle,
  THROTTLE_ENV,
  type ThrottleSetting,
} from './control.js';
export { DATA_DIR_ENV } from './data-dir.js';
export { type FleetOptions, type FleetTenant, fleetTenantSize, fleetTenants, MAX_FLEET } from './fleet.js';
export * from './graph/public.js';
export type { GraphCall, GraphRoute } from './graph/router.js';
export {
  createSimulatorHandler,
  type GrantType,
  type SimRequest,
  type SimResponse,
  type SimulatorOptions,
  type SimulatorState,
} from './handler.js';
export type { MultiTenantApp } from './identity.js';
export { TOKEN_FAULTS, type TokenFault } from './identity.js';
export {
  buildTenant,
  DEMO_SIZE,
  type Evolution,
  evolve,
  firstUserAddress,
  groupsOf,
  pathOf,
  type SimChat,
  type SimDrive,
  type SimItem,
  type SimMessage,
  type SimTenant,
  type SimUser,
  type TenantSize,
  versionBytes,
} from './model.js';
export { ALL_APPLICATION_PERMISSIONS, ROUTE_PERMISSIONS, type RouteRule, type Workload } from './permissions.js';
export {
  prepareSimulatorDataDir,
  type RunningSimulator,
  type StartSimulatorOptions,
  simulatorEndpoints,
  startSimulator,
} from './server.js';
export { FOREIGN_TENANT_ID, ID_TOKEN_FAULTS, type IdTokenFault, type SignInApp } from './sign-in.js';
export type {
  FieldValue,
  SimColumn,
  SimList,
  SimListItem,
  SimListItemVersion,
  SimPage,
  SimWebPart,
  SiteEvolution,
} from './sites.js';
export { CA_COMMON_NAME, loadOrCreateTls, type TlsMaterial } from './tls.js';
export { type AccessTokenClaims, GRAPH_AUDIENCE } from './tokens.js';
