/**
 * What a backed-up site's lists offer beside a restore: a list's items as a csv file at a restore
 * point. The csv is written where the restore's download also writes it (the jobs' executors, which
 * import no module).
 */
export { listItemsCsv } from '../../jobs/executors/site-content-csv.js';
