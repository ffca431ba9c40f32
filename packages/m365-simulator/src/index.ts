/**
 * @compliance-portal/m365-simulator: a Microsoft Graph v1.0 and Entra ID token endpoint double over
 * generated, deterministic Microsoft 365 tenants.
 */
export type { GraphCall, GraphRoute } from './graph/router.js';
export {
  createSimulatorHandler,
  type SimRequest,
  type SimResponse,
  type SimulatorOptions,
  type SimulatorState,
} from './handler.js';
export {
  buildTenant,
  DEMO_SIZE,
  type Evolution,
  evolve,
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
export { type RunningSimulator, SIMULATOR_PREFIX, simulatorEndpoints, startSimulator } from './server.js';
