// The fleet endpoint under load, as the fleet screen asks for it: one read first (the one that may
// find no snapshot), then `connections` connections for `seconds` cycling through the first page, the
// next, sorted by name, the critical ones and a search. Shared by bench/fleet-api.mjs and bench/fleet.mjs.
import autocannon from 'autocannon';

const FLEET = '/api/partner-clients/fleet';
const PATHS = [
  FLEET,
  `${FLEET}?page=2`,
  `${FLEET}?sort=name&pageSize=50`,
  `${FLEET}?attention=critical`,
  `${FLEET}?search=client%2001`,
];

/** The value at percentile `p` of ascending `sorted`. */
export const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

/**
 * Loads the fleet endpoint; resolves with the first answer (`page`), its time (`firstMs`), every
 * answer's time in ms ascending (`times`) and autocannon's result (requests/s, non-2xx, errors).
 */
export async function loadFleet({ origin, token, connections, seconds }) {
  const headers = { authorization: token };
  const started = performance.now();
  const answer = await fetch(`${origin}${FLEET}`, { headers });
  const page = await answer.json();
  if (!answer.ok) throw new Error(`${FLEET}: ${answer.status} ${JSON.stringify(page)}`);
  const firstMs = performance.now() - started;
  const times = [];
  const result = await new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: origin,
        connections,
        duration: seconds,
        requests: PATHS.map((path) => ({ method: 'GET', path, headers })),
      },
      (error, r) => (error ? reject(error) : resolve(r)),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime));
  });
  times.sort((a, b) => a - b);
  return { page, firstMs, times, result };
}
