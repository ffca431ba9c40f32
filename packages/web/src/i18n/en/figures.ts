/**
 * English texts of the figures every area shows, each defined once (namespace spread into ../en.ts):
 * dashboards, reports, exports, the overview and the help center say these words, with these
 * meanings. The server computes them so (packages/server/src/modules/dashboards/service.ts).
 */
export const figuresNamespaces = {
  figures: {
    itemsProtected: {
      label: 'Items protected',
      short: 'Items protected',
      definition:
        'The files, messages, list items and pages the store holds now for an account, site or team (not those deleted at the source), and the mails, events, contacts and tasks archived for a mailbox, each counted once however many jobs cover it. The figure is the sum of its kinds, shown beside it.',
    },
    itemsChanged: {
      label: 'Items changed in the run',
      short: 'Items changed',
      definition:
        'What a run changed: the new, changed or deleted files, messages, list items and pages a backup recorded, the mails, events, contacts, tasks or messages an archive run archived, the items a deletion removed or a restore put back. Items already stored are not counted again.',
    },
    storedBytes: {
      label: 'Stored size (after deduplication)',
      short: 'Stored size',
      definition:
        'The bytes the store keeps for an account, site, team or mailbox, every version included, each content counted once however many jobs back it up. An area’s and the overview’s stored size is the sum of its accounts’.',
    },
    bytesRead: {
      label: 'Data read in the run',
      short: 'Data read',
      definition:
        'The bytes of the items a run changed: read from Microsoft 365 by a backup or an archive run, written back by a restore, removed by a deletion.',
    },
    perDay: {
      storedSize: 'Stored size at the end of each day (after deduplication)',
      itemsProtected: 'Items protected at the end of each day',
      archived: 'Archived per day',
      deleted: 'Deleted by retention per day',
      note: 'Each day shows what happened on it: mails or messages deleted later still count on the day they were archived, and a deletion shows on its own day.',
      deletions_one: 'Retention deleted {{count}} item in the period: {{days}}.',
      deletions_other: 'Retention deleted {{count}} items in the period: {{days}}.',
      deletionDay: '{{date}}: {{deleted}}',
      noDeletions: 'Retention deleted nothing in the period.',
    },
    kinds: {
      mails_one: '{{n}} mail',
      mails_other: '{{n}} mails',
      events_one: '{{n}} event',
      events_other: '{{n}} events',
      contacts_one: '{{n}} contact',
      contacts_other: '{{n}} contacts',
      tasks_one: '{{n}} task',
      tasks_other: '{{n}} tasks',
      files_one: '{{n}} file',
      files_other: '{{n}} files',
      messages_one: '{{n}} message',
      messages_other: '{{n}} messages',
      listItems_one: '{{n}} list item',
      listItems_other: '{{n}} list items',
      pages_one: '{{n}} page',
      pages_other: '{{n}} pages',
      total: '{{total}} ({{parts}})',
    },
    definitionsTitle: 'What the figures mean',
    coverage: {
      all_one: 'The {{count}} site the storage analysis read is in a version clean-up job.',
      all_other: 'All {{count}} sites and team sites the storage analysis read are in a version clean-up job.',
      some: '{{covered}} of {{total}} sites and team sites are in a version clean-up job; {{uncovered}} are in none (the largest are listed).',
      none_one: 'The {{count}} site the storage analysis read is in no version clean-up job.',
      none_other: 'None of the {{count}} sites and team sites is in a version clean-up job (the largest are listed).',
      oldVersions:
        '{{total}} sites and team sites have old versions: {{covered}} are in a clean-up job (its rule keeps these versions, or it has not run since the analysis), {{uncovered}} are in none.',
      column: 'Clean-up job',
      inJob: 'Included',
      notInJob: 'None',
    },
  },
} as const;
