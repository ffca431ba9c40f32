/**
 * Every signed-in endpoint declares what it acts on, and the declaration matches its path: the server
 * resolves (and refuses) the tenant or worker from it before any handler runs, so a path that names one
 * without declaring it would reach its handler unchecked.
 */
import { describe, expect, it } from 'vitest';
import { type AnyEndpoint, endpoints, type JsonSchema, type Scope, type ScopeSource } from '../src/index.js';

const pathNames = (endpoint: AnyEndpoint) => [...endpoint.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
const scopeOf = (endpoint: AnyEndpoint): Scope | undefined => endpoint.scope;

/** The parameter a scope reads, and where. */
function parameterOf(scope: Scope): { in: ScopeSource; name: string } | undefined {
  if (scope === 'caller') return undefined;
  if ('tenant' in scope) return { in: scope.tenant, name: 'tenantId' };
  if ('workerTenant' in scope) return scope.workerTenant;
  if ('worker' in scope) return scope.worker;
  return undefined;
}

/** Whether the request always carries `name` in `place`: a path parameter, or a required member of the query or body. */
function required(endpoint: AnyEndpoint, place: ScopeSource, name: string): boolean {
  if (place === 'path') return pathNames(endpoint).includes(name);
  const schema = (place === 'query' ? endpoint.query : endpoint.body) as JsonSchema | undefined;
  return Boolean(schema?.properties?.[name]) && (schema?.required ?? []).includes(name);
}

describe('declared scope', () => {
  it('is declared by every endpoint that is not public, and by no public one', () => {
    expect(endpoints.filter((e) => e.access !== 'public' && scopeOf(e) === undefined).map((e) => e.id)).toEqual([]);
    expect(endpoints.filter((e) => e.access === 'public' && scopeOf(e) !== undefined).map((e) => e.id)).toEqual([]);
  });

  it('is the tenant of the path wherever the path names {tenantId}', () => {
    const wrong = endpoints
      .filter((e) => pathNames(e).includes('tenantId'))
      .filter((e) => JSON.stringify(scopeOf(e)) !== JSON.stringify({ tenant: 'path' }))
      .map((e) => e.id);
    expect(wrong).toEqual([]);
  });

  it('is a worker, or its tenant, of the path wherever the path names {workerIp} or {workerId}', () => {
    const wrong = endpoints
      .filter((e) => pathNames(e).some((name) => name === 'workerIp' || name === 'workerId'))
      .filter((e) => {
        const scope = scopeOf(e);
        const worker = typeof scope === 'object' && ('worker' in scope || 'workerTenant' in scope);
        const parameter = scope && parameterOf(scope);
        return !worker || parameter?.in !== 'path' || !pathNames(e).includes(parameter.name);
      })
      .map((e) => e.id);
    expect(wrong).toEqual([]);
  });

  it('reads a parameter every request of the endpoint carries', () => {
    const unread = endpoints.flatMap((e) => {
      const scope = scopeOf(e);
      const parameter = scope && parameterOf(scope);
      const index =
        scope && typeof scope === 'object' && 'workerTenant' in scope ? scope.workerTenant.index : undefined;
      return [
        ...(parameter && !required(e, parameter.in, parameter.name)
          ? [`${e.id}: ${parameter.in} ${parameter.name}`]
          : []),
        ...(parameter && index && !required(e, parameter.in, index) ? [`${e.id}: ${parameter.in} ${index}`] : []),
      ];
    });
    expect(unread).toEqual([]);
  });

  it('names an organisation only where the query may name one', () => {
    for (const endpoint of endpoints) {
      const scope = scopeOf(endpoint);
      if (scope && typeof scope === 'object' && 'organisation' in scope) {
        expect((endpoint.query as JsonSchema | undefined)?.properties?.organisationId, endpoint.id).toBeDefined();
      }
    }
  });
});
