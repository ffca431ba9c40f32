// biome-ignore lint/correctness/noUnusedImports: the declaration emitter names these symbols in listQueryProperties' type.
import type { optionalMark, staticType } from '../core/schema.js';
import * as s from '../core/schema.js';

/** Schema of a GUID (a tenant, directory or application id) as Entra ID writes it. */
export const guid = (description: string) =>
  s.string({ pattern: '^[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$', description });

/** Paging, sorting and filtering of a server-side list; spread into a list's own query. */
export const listQueryProperties = {
  page: s.optional(s.integer({ minimum: 1, description: 'One-based page number; default 1.' })),
  pageSize: s.optional(s.integer({ minimum: 1, maximum: 500, description: 'Rows per page; default 25.' })),
  sort: s.optional(s.string({ maxLength: 64, description: 'Field to sort by.' })),
  order: s.optional(s.oneOfStrings(['asc', 'desc'])),
  search: s.optional(s.string({ maxLength: 200, description: 'Free-text filter.' })),
};
/** Schema of the paging, sorting and search query of a server-side list. */
export const ListQuery = s.object(listQueryProperties);
/**
 * The query of a server-side list: `page` (one-based, default 1), `pageSize` (1 to 500, default 25),
 * `sort` (a field name), `order` (`asc` or `desc`) and a free-text `search`. The archived-mailbox list
 * takes exactly this; the other lists add their own filters to it.
 */
export type ListQuery = s.Static<typeof ListQuery>;

/** One page of a server-side list. */
/*#__NO_SIDE_EFFECTS__*/
export function page<S extends s.Schema>(item: S) {
  return s.object({
    items: s.array(item),
    total: s.integer({ minimum: 0, description: 'Rows matching the filter, over all pages.' }),
    page: s.integer({ minimum: 1 }),
    pageSize: s.integer({ minimum: 1 }),
  });
}
/**
 * One page of a server-side list, with `T` the item: the items, the rows matching the filter over all
 * pages (`total`), and the one-based `page` and `pageSize` the server used. Every paged endpoint
 * answers this shape.
 */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** An archived item's id: a decimal number of at most 18 digits, as the archive numbers its items. */
export const ArchiveItemId = s.string({
  pattern: '^[0-9]{1,18}$',
  maxLength: 18,
  description: "An archived item's id (decimal digits).",
});

/** A message-only answer (the legacy API's success and error shape). */
export const MessageResponse = s.object({ message: s.string() });
export type MessageResponse = s.Static<typeof MessageResponse>;

/** The job statuses, for lists and charts that show each of them. */
export const JOB_STATUSES = ['finished', 'running', 'failed', 'pending'] as const;
/** The job statuses (finished, running, failed, pending), each shown in its colour. */
export const JobStatus = s.oneOfStrings(JOB_STATUSES);
export type JobStatus = s.Static<typeof JobStatus>;

/** The Microsoft 365 workload a job or figure is about. */
export const Application = s.oneOfStrings(['onedrive', 'sharepoint', 'teams', 'exchange']);
export type Application = s.Static<typeof Application>;

/** The job types of the portal: backup and restore, archiving, archive deletion and version clean-up. */
export const JobType = s.oneOfStrings([
  'backup',
  'restore',
  'exchangeArchive',
  'teamsArchive',
  'archiveDeletion',
  'versionCleanup',
]);
export type JobType = s.Static<typeof JobType>;

/** When a job runs: daily, weekly, monthly, quarterly, on a date, on days of the week, at chosen hours, or once after it is created. */
export const Recurrence = s.object(
  {
    kind: s.oneOfStrings(['daily', 'weekly', 'monthly', 'quarterly', 'specificDate', 'daysOfWeek', 'afterCreation']),
    hours: s.optional(
      s.array(s.integer({ minimum: 0, maximum: 23 }), {
        uniqueItems: true,
        description: 'Hours of the day to run at.',
      }),
    ),
    daysOfWeek: s.optional(
      s.array(s.integer({ minimum: 0, maximum: 6 }), {
        uniqueItems: true,
        minItems: 1,
        description: '0 is Sunday; with kind daysOfWeek.',
      }),
    ),
    dayOfMonth: s.optional(s.integer({ minimum: 1, maximum: 31, description: 'With kind monthly or quarterly.' })),
    date: s.optional(s.dateTime('With kind specificDate: the one run.')),
    timeZone: s.optional(s.string({ maxLength: 64, description: 'IANA time zone; default UTC.' })),
  },
  'When a job runs.',
);
export type Recurrence = s.Static<typeof Recurrence>;

/** How long archived items are kept before a deletion job removes them: x days, x months or 1 year. */
export const Retention = s.object(
  {
    unit: s.oneOfStrings(['days', 'months', 'year']),
    value: s.integer({ minimum: 1, maximum: 3650, description: 'Always 1 with unit year.' }),
  },
  'How long what a job stored is kept.',
);
export type Retention = s.Static<typeof Retention>;

/** What an Exchange archive job can archive of each mailbox: its mail, calendars, contacts and To Do tasks. */
export const MAILBOX_PARTS = ['mail', 'calendars', 'contacts', 'tasks'] as const;
/** One part of a mailbox an Exchange archive job archives. */
export type MailboxPart = (typeof MAILBOX_PARTS)[number];

/** What a SharePoint backup job can back up of each site: its document libraries, lists (with their items) and pages. */
export const SITE_PARTS = ['libraries', 'lists', 'pages'] as const;
/** One part of a site a SharePoint backup job backs up. */
export type SitePart = (typeof SITE_PARTS)[number];

/** Schema of what an Exchange archive or SharePoint backup job includes of each of its sources. */
export const JobInclude = s.array(s.oneOfStrings([...MAILBOX_PARTS, ...SITE_PARTS]), {
  minItems: 1,
  maxItems: MAILBOX_PARTS.length,
  uniqueItems: true,
  description:
    'Exchange archive: any of mail, calendars, contacts, tasks; SharePoint backup: any of libraries, lists, pages. ' +
    'Absent for everything; other jobs take none.',
});
/**
 * What an Exchange archive job archives of each mailbox (`mail`, `calendars`, `contacts`, `tasks`) or
 * a SharePoint backup job backs up of each site (`libraries`, `lists`, `pages`), at least one. A job
 * without it includes everything its kind can.
 */
export type JobInclude = s.Static<typeof JobInclude>;

/** The restore conflict policies, for a form that offers each of them. */
export const CONFLICT_POLICIES = ['skip', 'keepBoth', 'overwrite'] as const;
/** What a file or folder restore does when the target already has the item. */
export const ConflictPolicy = s.oneOfStrings(CONFLICT_POLICIES);
export type ConflictPolicy = s.Static<typeof ConflictPolicy>;

/** A licence kind, lower-cased: full or trial. */
export const LicenseKind = s.oneOfStrings(['trial', 'full']);
export type LicenseKind = s.Static<typeof LicenseKind>;

/** The user's role: customer administrator, partner, or platform operator. */
export const Role = s.oneOfStrings(['admin', 'partner', 'operator']);
export type Role = s.Static<typeof Role>;

/** The signed-in user as the portal stores it (the "inner user"). */
export const SessionUser = s.object({
  email: s.email(),
  role: Role,
  organisationId: s.optional(s.string({ description: 'The organisation the user belongs to.' })),
  displayName: s.optional(s.string()),
});
export type SessionUser = s.Static<typeof SessionUser>;

/** Schema of the last test of a location's object store. */
export const StoreProbe = s.object(
  {
    at: s.dateTime('When the store was tested.'),
    ok: s.boolean('Whether a test object was written, read back and deleted.'),
    code: s.optional(
      s.oneOfStrings(
        ['storeUnreachable', 'storeCredentialsRefused', 'storeNotFound', 'storeProbeFailed'],
        'Why the test failed.',
      ),
    ),
    reason: s.optional(
      s.string({ maxLength: 2000, description: "A failed test's reason in the storage service's words." }),
    ),
  },
  "The last test of a location's object store (when it was saved, or tested again); null: never tested. Absent for the server's own store, which is not tested per location.",
);
/**
 * The last test of a location's object store: when, whether a test object was written, read back and
 * deleted, and for a failure its code and the storage service's own words.
 */
export type StoreProbe = s.Static<typeof StoreProbe>;

/**
 * A storage location: its name, its site address, and the store that address selects. A SharePoint
 * site's address names the location (the server never writes to the site); its data is kept in the
 * server's own store.
 */
export const StorageLocation = s.object({
  locationId: s.string(),
  name: s.string({ minLength: 1, maxLength: 120, description: 'Location name.' }),
  siteAddress: s.string({ minLength: 1, maxLength: 2048, description: 'Site address (URL of the storage site).' }),
  store: s.optional(
    s.oneOfStrings(
      ['server', 'azureBlob', 's3'],
      "Where the data is kept: the server's own store, Azure Blob Storage or S3.",
    ),
  ),
  storeAddress: s.optional(
    s.string({
      description:
        "Azure Blob Storage and S3: where the bytes go, the container or bucket with its prefix (and an S3 endpoint), without a SAS or any other credential. Absent for the server's own store.",
    }),
  ),
  probe: s.optional(s.nullable(StoreProbe)),
  accessKeyId: s.optional(s.string({ description: 'S3: the access key ID.' })),
  hasSecret: s.optional(s.boolean('Whether a secret (account key, secret access key) is stored.')),
  usedByJobs: s.integer({ minimum: 0, description: 'Jobs that write to this location.' }),
  createdAt: s.dateTime(),
});
export type StorageLocation = s.Static<typeof StorageLocation>;

/** The states of a run itself; a job's status folds queued and stopped into pending. */
export const RUN_STATES = ['queued', 'running', 'finished', 'failed', 'stopped'] as const;
/** A run's own state: queued, running, finished, failed or stopped. */
export const RunState = s.oneOfStrings(RUN_STATES);
export type RunState = s.Static<typeof RunState>;

/** Why a run or an item failed: the reason in words, and Microsoft's code and HTTP status beside it. */
export const RunFailure = s.object(
  {
    reason: s.string({ description: 'What went wrong, in words.' }),
    code: s.optional(
      s.string({
        description:
          "Microsoft Graph's error code (such as ErrorItemNotFound or TooManyRequests), or the portal's code when Microsoft was not the cause.",
      }),
    ),
    status: s.optional(s.integer({ minimum: 0, description: 'The HTTP status Microsoft 365 answered with.' })),
  },
  'Why a run or an item failed: the reason in words, and beside it the code and HTTP status Microsoft 365 answered with.',
);
/** Why a run or an item failed: `reason` in words, Microsoft's error `code` and HTTP `status` kept apart. */
export type RunFailure = s.Static<typeof RunFailure>;

/** One failed item of a run's account, site, mailbox or team. */
export const RunItemFailure = s.object(
  {
    item: s.string({
      description:
        "The item by name (a file's path, a mail's subject, a channel's name), or the account's own name when the account could not be read at all.",
    }),
    reason: s.string({ description: 'What went wrong, in words.' }),
    code: s.optional(s.string({ description: "Microsoft Graph's error code, or the portal's." })),
    status: s.optional(s.integer({ minimum: 0, description: 'The HTTP status Microsoft 365 answered with.' })),
    wholeAccount: s.optional(s.boolean('The account, site, mailbox or team could not be read at all.')),
  },
  'One failed item of an account: its name, the reason in words, and Microsoft’s code and HTTP status.',
);
/** One failed item of an account: its name, the reason in words, Microsoft's code and HTTP status. */
export type RunItemFailure = s.Static<typeof RunItemFailure>;

/** Microsoft 365's throttling of a run's requests. */
export const RunThrottling = s.object(
  {
    waiting: s.boolean('Whether the run waits for Microsoft 365 now.'),
    since: s.nullable(s.dateTime('Since when the run waits; null when it does not.')),
    nextTryAt: s.nullable(s.dateTime('When the run tries again; null when it does not wait.')),
    status: s.integer({
      minimum: 0,
      description:
        'The HTTP status that made it wait last: 429 (too many requests), 503 (service unavailable), 502 or 504; 0 when Microsoft 365 could not be reached.',
    }),
    retries: s.integer({ minimum: 0, description: 'Requests tried again over the whole run.' }),
    waitedSeconds: s.integer({
      minimum: 0,
      description: 'Seconds the run waited for Microsoft 365 in all (ended waits).',
    }),
  },
  'Microsoft 365 limiting or refusing the run’s requests for a while (HTTP 429 or 503 with Retry-After): the run waits and tries again.',
);
/**
 * Microsoft 365's throttling of a run: whether it waits now, since when and until when, the status
 * that made it wait (429, 503 …), the retries and the seconds waited over the run.
 */
export type RunThrottling = s.Static<typeof RunThrottling>;

/**
 * The kinds of item the areas protect: the mail archive's mails, events, contacts and To Do tasks; the
 * backups' files, Teams messages, SharePoint list items and site pages.
 */
export const ITEM_KINDS = ['mails', 'events', 'contacts', 'tasks', 'files', 'messages', 'listItems', 'pages'] as const;

const kindCount = (description: string) => s.optional(s.integer({ minimum: 0, description }));

// One set of fields for every object that splits a count by kind, each with its own description.
const itemsByKindProperties = {
  mails: kindCount('Mails (mail archive).'),
  events: kindCount('Calendar events (mail archive).'),
  contacts: kindCount('Contacts (mail archive).'),
  tasks: kindCount('To Do tasks (mail archive).'),
  files: kindCount('Files of drives and document libraries (backups).'),
  messages: kindCount('Teams messages (Teams backup).'),
  listItems: kindCount('SharePoint list items (SharePoint backup).'),
  pages: kindCount('SharePoint site pages (SharePoint backup).'),
};
/** Schema of a count split by the kind of item: each kind present is a part of the total beside it. */
export const ItemsByKind = s.object(
  itemsByKindProperties,
  'A count split by kind of item. Only the kinds the area handles are present; they add up to the total the object stands beside.',
);
/**
 * A count split by the kind of item ({@link ITEM_KINDS}): the mail archive's mails, events, contacts
 * and tasks, the backups' files, Teams messages, list items and pages. A field is present for each
 * kind the area handles (zero included) and absent otherwise; the parts add up to the total beside it.
 */
export type ItemsByKind = s.Static<typeof ItemsByKind>;

/** One run of a job, as the job monitor lists it. */
export const JobRun = s.object({
  reportId: s.string({ description: 'The run; its report has the same id.' }),
  jobId: s.string(),
  jobName: s.string(),
  jobType: JobType,
  application: s.optional(Application),
  status: JobStatus,
  progress: s.integer({ minimum: 0, maximum: 100 }),
  started: s.nullable(s.dateTime()),
  finished: s.nullable(s.dateTime()),
  itemsProcessed: s.integer({ minimum: 0 }),
  itemsFailed: s.integer({ minimum: 0 }),
  bytesProcessed: s.integer({ minimum: 0 }),
  message: s.optional(
    s.string({
      description:
        'The run\'s closing message ("Finished."), or the reason of a failed run; its colour follows `status`, not its words.',
    }),
  ),
  state: s.optional(RunState),
  queuedAt: s.optional(s.dateTime('When the run was queued (started by hand, by its schedule or on creation).')),
  durationSeconds: s.optional(
    s.nullable(
      s.integer({
        minimum: 0,
        description: 'From start to end, or to now while it runs; null before it started.',
      }),
    ),
  ),
  itemsFound: s.optional(s.integer({ minimum: 0, description: 'Items the run found to do so far.' })),
  itemsByKind: s.optional(
    s.object(
      itemsByKindProperties,
      'What the run archived or backed up by kind: an Exchange archive run its mails (`itemsProcessed`), events, contacts and tasks (new or changed versions); a SharePoint backup run its files (`itemsProcessed`), list items and pages. The run processed their sum; `itemsProcessed` and `itemsPerSecond` stay the mails or files alone.',
    ),
  ),
  itemsPerSecond: s.optional(
    s.nullable(
      s.number({ minimum: 0, description: 'Items processed per second of its duration; null before it started.' }),
    ),
  ),
  bytesPerSecond: s.optional(
    s.nullable(
      s.number({ minimum: 0, description: 'Bytes processed per second of its duration; null before it started.' }),
    ),
  ),
  accountsTotal: s.optional(s.integer({ minimum: 0, description: 'Accounts, sites, mailboxes or teams in the run.' })),
  accountsFailed: s.optional(
    s.integer({
      minimum: 0,
      description: 'Of them, those that failed (every account of a failed run, as its report shows them).',
    }),
  ),
  warnings: s.optional(
    s.integer({ minimum: 0, description: 'Items a finished run could not process (it finished with warnings).' }),
  ),
  failure: s.optional(RunFailure),
  throttling: s.optional(RunThrottling),
  retryable: s.optional(
    s.boolean(
      'The run failed, was stopped or finished with failed items: `monitoring.retry` may start a new run of its job.',
    ),
  ),
  retryOf: s.optional(s.string({ description: 'A retry: the run it retries.' })),
  download: s.optional(
    s.object(
      { size: s.integer({ minimum: 0, description: 'The size of the ZIP in bytes.' }) },
      "A restore as a download: the ZIP this run prepared, which `legacy.jobs.downloadRestoreArchive` serves (its job's latest finished run's).",
    ),
  ),
});
/**
 * One run of a job: its status (and its own `state`), when it was queued, started and finished, its
 * duration, items and bytes processed with their throughput, failures per account and per item,
 * warnings, a failed run's reason with Microsoft's code (`failure`), and Microsoft 365's throttling
 * while it waits (`throttling`). The fields after `message` are filled by this server; an older
 * server may leave them out.
 */
export type JobRun = s.Static<typeof JobRun>;

/** The most rows one page of a run's accounts holds: exports read long reports in pages this large. */
export const MAX_ACCOUNTS_PAGE_SIZE = 10_000;

/** The accounts of a run, as the monitor and the reports list them. */
export const RunAccountsQuery = s.object({
  ...listQueryProperties,
  pageSize: s.optional(
    s.integer({
      minimum: 1,
      maximum: MAX_ACCOUNTS_PAGE_SIZE,
      description: `Rows per page; default 25, at most ${MAX_ACCOUNTS_PAGE_SIZE} (an export reads a long report in large pages).`,
    }),
  ),
  status: s.optional(JobStatus),
  after: s.optional(
    s.string({
      maxLength: 400,
      description:
        'Keyset paging for long reports: the rows after this accountId in the chosen order (page is then ignored).',
    }),
  ),
});
export type RunAccountsQuery = s.Static<typeof RunAccountsQuery>;

/** One account, site, team or mailbox inside a run. */
export const RunAccount = s.object({
  accountId: s.string(),
  displayName: s.string(),
  status: JobStatus,
  items: s.integer({ minimum: 0 }),
  failedItems: s.integer({ minimum: 0 }),
  bytes: s.integer({ minimum: 0 }),
  errors: s.array(s.string(), {
    description: 'Failed items as "name: reason", at most 100 (failures has them with their codes).',
  }),
  failures: s.optional(
    s.array(RunItemFailure, {
      maxItems: 100,
      description:
        'The failed items, at most 100, each with its name, reason and Microsoft’s code; in a failed run an account without failures of its own has the run’s.',
    }),
  ),
});
export type RunAccount = s.Static<typeof RunAccount>;
