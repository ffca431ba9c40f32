/**
 * The package's Graph-fidelity surface: the checker against Graph's published metadata, the
 * validation figures a run leaves, QuickXorHash, and the delta-token retention of a tenant.
 */
export {
  type CheckResult,
  checkGraphAnswer,
  GRAPH_METADATA_PATH,
  GraphSchema,
  graphMetadata,
  type Mismatch,
  type Resolved,
} from '../metadata/check.js';
export {
  formatValidationSummary,
  summariseValidation,
  VALIDATE_ENV,
  VALIDATION_DIR_ENV,
  type ValidationMismatch,
  type ValidationState,
  type ValidationSummary,
} from '../metadata/validation.js';
export { expireDeltaTokens, WELL_KNOWN_FOLDERS } from '../model.js';
export { QuickXorHash, quickXorHash } from './quickxorhash.js';
export { DEFAULT_PAGE_SIZE } from './service.js';
