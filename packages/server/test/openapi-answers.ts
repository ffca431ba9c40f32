/**
 * Checks live answers against the published OpenAPI document (packages/sdk/openapi.json) with a
 * standard validator (Ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses it, with formats), independent of
 * the catalogue the server validates requests with: the status must be one the operation documents
 * (`default` covers only 5xx), the media type one of that status's, a JSON body valid against its
 * schema (objects closed: no member the document does not name), an empty body only where the
 * document allows none or an empty challenge (a `WWW-Authenticate` it names, sent), and a challenge
 * only where the document names one. The document's paths are full (`/apollo-beta/...`, `/api/...`);
 * staging serves apollo's under `/apollo`, as the document's server description says.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { apolloBasePaths } from '@compliance-portal/sdk';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Schema = Record<string, unknown>;
interface MediaType {
  schema?: Schema;
}
interface Response {
  $ref?: string;
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, MediaType>;
}
interface Operation {
  operationId: string;
  responses: Record<string, Response>;
}
interface Document {
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, Schema>; responses: Record<string, Response> };
}

/** One answer as it went over the wire. */
export interface Answer {
  /** When the caller knows it (the fuzz does); otherwise found from method and path. */
  operationId?: string;
  method: string;
  /** The URL's path, with its base (/apollo-beta, /apollo, /api). */
  path: string;
  status: number;
  headers: Record<string, string | undefined>;
  body: Buffer;
}

interface Route {
  method: string;
  pattern: RegExp;
  literals: number;
  operation: Operation;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);

function loadOpenApiDocument(): Document {
  const require = createRequire(import.meta.url);
  return JSON.parse(readFileSync(require.resolve('@compliance-portal/sdk/openapi.json'), 'utf8')) as Document;
}

export class OpenApiAnswers {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly routes: Route[] = [];
  private readonly byId = new Map<string, Operation>();
  private readonly compiled = new Map<Schema, ValidateFunction>();
  readonly problems: string[] = [];
  readonly statuses = new Map<number, number>();
  readonly operations = new Set<string>();
  answers = 0;

  constructor(private readonly document: Document = loadOpenApiDocument()) {
    (addFormats as unknown as (a: Ajv2020) => void)(this.ajv);
    const production = `${apolloBasePaths.production}/`;
    for (const [template, item] of Object.entries(document.paths)) {
      // The staging deployment's apollo paths: the same operations under its own base path.
      const staging = template.startsWith(production)
        ? [`${apolloBasePaths.staging}/${template.slice(production.length)}`]
        : [];
      for (const [method, value] of Object.entries(item)) {
        if (!METHODS.has(method)) continue;
        const operation = value as Operation;
        this.byId.set(operation.operationId, operation);
        for (const path of [template, ...staging]) {
          const segments = path.split('/').filter(Boolean);
          const source = segments
            .map((segment) => (/^\{[^}]+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
            .join('/');
          this.routes.push({
            method: method.toUpperCase(),
            pattern: new RegExp(`^/${source}$`),
            literals: segments.filter((segment) => !segment.startsWith('{')).length,
            operation,
          });
        }
      }
    }
  }

  /** The operation answering `method path`: literal segments win over parameters, as the server routes. */
  find(method: string, path: string): Operation | undefined {
    const bare = path.split('?')[0] ?? path;
    return this.routes
      .filter((route) => route.method === method.toUpperCase() && route.pattern.test(bare))
      .sort((a, b) => b.literals - a.literals)[0]?.operation;
  }

  private response(found: Response): Response {
    if (!found.$ref) return found;
    const name = found.$ref.replace('#/components/responses/', '');
    return this.document.components.responses[name] ?? {};
  }

  private validator(schema: Schema): ValidateFunction {
    let validate = this.compiled.get(schema);
    if (!validate) {
      // The document's component schemas travel with each schema, so that its $refs resolve.
      validate = this.ajv.compile({ ...schema, components: { schemas: this.document.components.schemas } });
      this.compiled.set(schema, validate);
    }
    return validate;
  }

  check(answer: Answer): void {
    const operation = answer.operationId ? this.byId.get(answer.operationId) : this.find(answer.method, answer.path);
    const where = `${answer.method} ${answer.path.slice(0, 120)} → ${answer.status}`;
    if (!operation) {
      this.problems.push(`${where}: no operation of the document answers it`);
      return;
    }
    this.answers += 1;
    this.operations.add(operation.operationId);
    this.statuses.set(answer.status, (this.statuses.get(answer.status) ?? 0) + 1);
    const declared =
      operation.responses[String(answer.status)] ??
      operation.responses[`${String(answer.status)[0]}XX`] ??
      (answer.status >= 500 ? operation.responses.default : undefined);
    if (!declared) {
      this.problems.push(`${operation.operationId} ${where}: status not documented`);
      return;
    }
    const response = this.response(declared);
    const content = response.content ?? {};
    const mediaType = answer.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
    const documentedChallenge = response.headers?.['WWW-Authenticate'] as { schema?: { const?: string } } | undefined;
    const challengeDocumented = documentedChallenge !== undefined;
    const sentChallenge = answer.headers['www-authenticate'];
    if (sentChallenge && !challengeDocumented) {
      this.problems.push(`${operation.operationId} ${where}: a WWW-Authenticate challenge the document does not name`);
    } else if (
      sentChallenge &&
      documentedChallenge?.schema?.const &&
      sentChallenge !== documentedChallenge.schema.const
    ) {
      this.problems.push(
        `${operation.operationId} ${where}: WWW-Authenticate ${sentChallenge}, documented ${documentedChallenge.schema.const}`,
      );
    }
    if (answer.body.length === 0) {
      const challenge = challengeDocumented && !!answer.headers['www-authenticate'];
      if (Object.keys(content).length > 0 && !challenge) {
        this.problems.push(
          `${operation.operationId} ${where}: empty body, documented ${Object.keys(content).join(', ')}`,
        );
      }
      return;
    }
    if (Object.keys(content).length === 0) {
      this.problems.push(`${operation.operationId} ${where}: a body (${mediaType}) where the document says none`);
      return;
    }
    const media = mediaType ? content[mediaType] : undefined;
    if (!media) {
      this.problems.push(
        `${operation.operationId} ${where}: content type ${mediaType}, documented ${Object.keys(content).join(', ')}`,
      );
      return;
    }
    if (!mediaType?.endsWith('json') || !media.schema) return;
    let json: unknown;
    try {
      json = JSON.parse(answer.body.toString('utf8'));
    } catch {
      this.problems.push(`${operation.operationId} ${where}: the body is not JSON`);
      return;
    }
    const validate = this.validator(media.schema);
    if (!validate(json)) {
      const errors = (validate.errors ?? [])
        .slice(0, 3)
        .map((e) => `${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
      this.problems.push(`${operation.operationId} ${where}: ${errors.join('; ')}`);
    }
  }

  /** `Answers validated against the OpenAPI document: N of M operations, statuses ...; problems K`. */
  summary(label: string): string {
    const statuses = [...this.statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${status}: ${n}`)
      .join(', ');
    return `Answers validated against the OpenAPI document (${label}): ${this.answers} answers of ${this.operations.size} operations (${statuses}); problems ${this.problems.length}`;
  }
}

/** A fetch that hands every answer to `checker` (the body read from a clone) before the caller reads it. */
export function checkedFetch(checker: OpenApiAnswers, inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const response = await inner(request);
    const body = Buffer.from(await response.clone().arrayBuffer());
    checker.check({
      method: request.method,
      path: new URL(request.url).pathname,
      status: response.status,
      headers: Object.fromEntries(response.headers.entries()),
      body,
    });
    return response;
  };
}
