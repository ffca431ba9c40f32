import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** A strict draft 2020-12 validator, as the server uses for request bodies. */
export function createAjv() {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  return ajv;
}
