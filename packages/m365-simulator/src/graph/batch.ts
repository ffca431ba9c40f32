/**
 * JSON batching, `POST /v1.0/$batch`, as Graph serves it: up to 20 requests in one JSON body, each
 * with an `id`, a `method`, a `url` relative to the version root (`/users?$select=id`, `users`, or
 * `/v1.0/users` as the Graph JS client writes it), optional `headers` and `body` (JSON with a JSON
 * Content-Type, base64 or base64url otherwise) and optional `dependsOn`. Each request is answered as
 * it would be alone (its own permissions, validation, throttling and headers) through the dispatch;
 * one that depends on a failed request (status 400 or above) answers 424 without being run. The
 * answer is 200 with `{responses: [{id, status, headers, body}]}` in the order the requests were
 * given, whatever order they ran in; a malformed batch is refused whole with 400, as Graph does.
 */
import { randomUUID } from 'node:crypto';
import { graphError, type SimRequest, type SimResponse } from './odata.js';

/** The most requests Graph takes in one batch. */
const MAX_BATCH_REQUESTS = 20;

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** How Graph spells the standard headers inside a batch answer (clients read `Content-Type` by that key). */
const SPELLING: Record<string, string> = {
  'cache-control': 'Cache-Control',
  'content-range': 'Content-Range',
  'content-type': 'Content-Type',
  etag: 'ETag',
  location: 'Location',
  'retry-after': 'Retry-After',
};

/** Answers one request of the batch as if it had come alone (the envelope's token already checked). */
export type BatchDispatch = (request: SimRequest) => SimResponse | Promise<SimResponse>;

interface Step {
  id: string;
  /** The id compared: Graph's batch ids are not case-sensitive. */
  key: string;
  request: SimRequest;
  dependsOn: string[];
}

interface BatchAnswer {
  id: string;
  status: number;
  headers: Record<string, string>;
  body?: unknown;
}

class Malformed extends Error {}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isJsonType = (type: string | undefined) => /^application\/([\w.+-]+\+)?json\b/i.test(type ?? '');
const isTextType = (type: string | undefined) => /^text\/|[/+]xml\b|charset=/i.test(type ?? '');

/** One request of the batch as the dispatch takes it, or why the batch is malformed. */
function stepOf(raw: unknown, envelope: SimRequest): Step {
  if (!isObject(raw)) throw new Malformed('Every entry of requests must be an object.');
  const { id, method, url, headers, body, dependsOn } = raw;
  if (typeof id !== 'string' || id.trim() === '') throw new Malformed('Request Id is required for every request.');
  if (typeof method !== 'string' || !METHODS.has(method.toUpperCase())) {
    throw new Malformed(`Request ${id}: method '${String(method)}' is not supported in a batch.`);
  }
  if (typeof url !== 'string' || url.trim() === '') throw new Malformed(`Request ${id}: url is required.`);
  // A scheme (https:) or a network path (//host) makes the URL absolute; the batch takes relative ones only.
  if (/^[a-z][a-z\d+.-]*:/i.test(url.trim()) || url.trim().startsWith('//')) {
    throw new Malformed(`Request ${id}: the url must be relative to the version root, e.g. /users, not ${url}.`);
  }
  if (headers !== undefined && !isObject(headers)) throw new Malformed(`Request ${id}: headers must be an object.`);
  const given: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (typeof value !== 'string') throw new Malformed(`Request ${id}: the header ${name} must be a string.`);
    given[name.toLowerCase()] = value;
  }
  let bytes = Buffer.alloc(0);
  if (body !== undefined && body !== null) {
    const type = given['content-type'];
    if (!type) throw new Malformed(`Request ${id}: a request with a body needs a Content-Type header.`);
    if (isJsonType(type)) bytes = Buffer.from(JSON.stringify(body));
    else if (typeof body === 'string') bytes = Buffer.from(body, 'base64');
    else throw new Malformed(`Request ${id}: a body of type ${type} must be base64 encoded.`);
  }
  if (dependsOn !== undefined && !(Array.isArray(dependsOn) && dependsOn.every((d) => typeof d === 'string'))) {
    throw new Malformed(`Request ${id}: dependsOn must be a list of request ids.`);
  }
  const target = new URL(url.trim().startsWith('/') ? url.trim() : `/${url.trim()}`, 'https://localhost');
  const path = /^\/v1\.0(\/|$)/.test(target.pathname) ? target.pathname : `/v1.0${target.pathname}`;
  return {
    id,
    key: id.toLowerCase(),
    dependsOn: (dependsOn ?? []).map((d) => d.toLowerCase()),
    request: {
      method: method.toUpperCase(),
      path,
      query: target.searchParams,
      // The envelope's token is the inner requests' token; nothing else of the envelope carries over.
      headers: { ...given, authorization: envelope.headers.authorization },
      body: bytes,
    },
  };
}

/** The steps of the batch, checked whole: ids unique, dependencies known and without a cycle. */
function stepsOf(envelope: SimRequest): Step[] {
  let payload: unknown;
  try {
    payload = JSON.parse(envelope.body.toString('utf8'));
  } catch {
    throw new Malformed(
      'Unable to read JSON request payload. Please ensure Content-Type header is set and payload is of valid JSON format.',
    );
  }
  const requests = isObject(payload) ? payload.requests : undefined;
  if (!Array.isArray(requests) || requests.length === 0) {
    throw new Malformed('A batch needs a requests property with at least one request.');
  }
  if (requests.length > MAX_BATCH_REQUESTS) {
    throw new Malformed(
      `A batch takes at most ${MAX_BATCH_REQUESTS} requests; this one has ${requests.length}. Split it into several batches.`,
    );
  }
  const steps = requests.map((raw) => stepOf(raw, envelope));
  const byKey = new Map<string, Step>();
  for (const step of steps) {
    if (byKey.has(step.key)) throw new Malformed(`Request Id ${step.id} has to be unique in a batch.`);
    byKey.set(step.key, step);
  }
  for (const step of steps) {
    for (const dependency of step.dependsOn) {
      if (!byKey.has(dependency)) {
        throw new Malformed(`Request ${step.id} depends on request ${dependency}, which is not in the batch.`);
      }
    }
  }
  // A cycle would wait forever: every step must be reachable by taking first those without open dependencies.
  const done = new Set<string>();
  while (done.size < steps.length) {
    const ready = steps.filter((s) => !done.has(s.key) && s.dependsOn.every((d) => done.has(d)));
    if (ready.length === 0) {
      const stuck = steps.filter((s) => !done.has(s.key)).map((s) => s.id);
      throw new Malformed(`Requests ${stuck.join(', ')} depend on each other; dependsOn must not form a cycle.`);
    }
    for (const s of ready) done.add(s.key);
  }
  return steps;
}

/** An answer as it stands inside the batch: headers as Graph spells them, the body as JSON, text or base64url. */
function inBatch(id: string, response: SimResponse): BatchAnswer {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers ?? {})) headers[SPELLING[name] ?? name] = value;
  let body: unknown;
  if (response.json !== undefined) {
    headers['Content-Type'] ??= 'application/json';
    body = response.json;
  } else if (response.bytes && response.bytes.length > 0) {
    const bytes = Buffer.from(response.bytes);
    // OData's JSON batch format: text as a string, other bytes base64url encoded.
    body = isTextType(headers['Content-Type']) ? bytes.toString('utf8') : bytes.toString('base64url');
  }
  return { id, status: response.status, headers, ...(body !== undefined ? { body } : {}) };
}

/**
 * `POST /v1.0/$batch`: the requests without dependencies start at once, in the order given (so a
 * throttle counting every n-th request counts them in that order); each with `dependsOn` starts when
 * every request it names has its answer.
 */
export async function answerBatch(envelope: SimRequest, dispatch: BatchDispatch): Promise<SimResponse> {
  const requestId = randomUUID();
  const ids = { 'request-id': requestId, 'client-request-id': envelope.headers['client-request-id'] || requestId };
  let steps: Step[];
  try {
    steps = stepsOf(envelope);
  } catch (error) {
    if (!(error instanceof Malformed)) throw error;
    const refusal = graphError(400, 'BadRequest', error.message);
    const json = refusal.json as { error: { innerError: Record<string, string> } };
    Object.assign(json.error.innerError, ids);
    return { ...refusal, headers: { ...refusal.headers, ...ids } };
  }
  const byKey = new Map(steps.map((s) => [s.key, s]));
  // An exception in one request is that request's 500, as it would be alone, not the whole batch's.
  const run = async (request: SimRequest): Promise<SimResponse> => {
    try {
      return await dispatch(request);
    } catch (error) {
      return graphError(500, 'generalException', String(error));
    }
  };
  const answers = new Map<string, Promise<SimResponse>>();
  const answer = (step: Step): Promise<SimResponse> => {
    let pending = answers.get(step.key);
    if (!pending) {
      const before = step.dependsOn.flatMap((d) => byKey.get(d) ?? []);
      pending =
        before.length === 0
          ? run(step.request)
          : Promise.all(before.map(answer)).then((answered) => {
              const failed = answered.findIndex((r) => r.status >= 400);
              if (failed < 0) return run(step.request);
              return graphError(
                424,
                'FailedDependency',
                `Request ${step.id} was not run: it depends on request ${before[failed]?.id}, which failed with ${answered[failed]?.status}.`,
              );
            });
      answers.set(step.key, pending);
    }
    return pending;
  };
  const responses = await Promise.all(steps.map(async (s) => inBatch(s.id, await answer(s))));
  return { status: 200, headers: ids, json: { responses } };
}
