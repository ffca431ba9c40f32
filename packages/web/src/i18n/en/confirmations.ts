/**
 * English texts of the confirmations of destructive actions (a deletion job, a legal hold placed or
 * released, a tenant or a location removed) and of the data-management clean-up jobs (namespaces
 * spread into ../en.ts).
 */
export const confirmationsNamespaces = {
  confirmations: {
    deletion: {
      createTitle: 'Create the deletion job "{{name}}"?',
      editTitle: 'Save the deletion job "{{name}}"?',
      create: 'Create deletion job',
      save: 'Save deletion job',
      what_one:
        'Deletes {{items}} mail ({{size}}) from {{mailboxes}}, archived before {{before}}; it cannot be undone.',
      what_other:
        'Deletes {{items}} mails ({{size}}) from {{mailboxes}}, archived before {{before}}; it cannot be undone.',
      nothing: 'Run now, it would delete no mail: nothing archived in these mailboxes is older than {{before}}.',
      mailboxes_one: '{{n}} mailbox',
      mailboxes_other: '{{n}} mailboxes',
      kept_one: '{{items}} mail as old stays: an eDiscovery case on legal hold keeps it.',
      kept_other: '{{items}} mails as old stay: eDiscovery cases on legal hold keep them.',
      atOnce: 'It runs as soon as it is saved.',
      scheduled: 'It runs on its schedule ({{schedule}}); each run deletes what is then older than the retention.',
      loading: 'Working out what the deletion removes…',
      startPreviewFailed: 'What this run would delete could not be worked out.',
      previewFailed: 'What the deletion would remove could not be worked out; the job is not saved.',
      created: 'The deletion job "{{name}}" was created.',
      updated: 'The deletion job "{{name}}" was saved.',
    },
    hold: {
      placeFailed: 'The legal hold could not be placed.',
      releaseFailed: 'The legal hold could not be released.',
      placeTitle: 'Put the case "{{name}}" on legal hold?',
      place: 'Place legal hold',
      placeText_one:
        'Keeps every item of {{custodians}} that the search "{{query}}" finds ({{hits}} hit when the case was saved), and those archived later that match, from every deletion job until the hold is released.',
      placeText_other:
        'Keeps every item of {{custodians}} that the search "{{query}}" finds ({{hits}} hits when the case was saved), and those archived later that match, from every deletion job until the hold is released.',
      releaseText_one:
        'Deletion jobs may then delete the {{items}} item the hold keeps, once it is past its retention; deleted items cannot be restored.',
      releaseText_other:
        'Deletion jobs may then delete the {{items}} items the hold keeps, once they are past their retention; deleted items cannot be restored.',
      custodianItems_one: '{{name}} ({{kind}}): {{items}} item',
      custodianItems_other: '{{name}} ({{kind}}): {{items}} items',
      custodiansLabel: 'Custodians the hold keeps',
      more: 'and {{n}} more',
      kinds: { mailbox: 'mailbox', team: 'team channels', chats: 'chats' },
    },
    tenant: {
      text: 'Deletes "{{name}}" from the portal with {{jobs}}, {{locations}} and {{cases}}. Its backups and archives can no longer be restored from the portal; its data in Microsoft 365 stays. It cannot be undone.',
      jobs_one: '{{n}} job and its runs',
      jobs_other: '{{n}} jobs and their runs',
      locations_one: '{{n}} storage location',
      locations_other: '{{n}} storage locations',
      cases_one: '{{n}} eDiscovery case',
      cases_other: '{{n}} eDiscovery cases',
      held_one: '{{n}} of its cases is on legal hold: the hold ends with the tenant.',
      held_other: '{{n}} of its cases are on legal hold: the holds end with the tenant.',
      active: 'It is the active tenant: another of your tenants becomes the active one.',
      loading: 'Counting what the tenant holds…',
      previewFailed: 'What the tenant holds could not be counted: its jobs, locations and cases go with it.',
    },
    removeJob: {
      archive: 'The job and its schedule are removed; what it archived stays in the archive.',
      archiveDeletion: 'The job and its schedule are removed; it deletes nothing more. What it deleted stays deleted.',
      versionCleanup:
        'The job and its schedule are removed; it removes no more versions. Versions it removed stay removed.',
    },
    location: {
      text: 'Deletes the storage location "{{name}}" ({{where}}). No job writes to it; a location that still holds archived items is refused. It cannot be undone.',
      inUse_one: '{{n}} job writes to "{{name}}": change its destination or remove it before deleting the location.',
      inUse_other:
        '{{n}} jobs write to "{{name}}": change their destination or remove them before deleting the location.',
    },
  },
  cleanupJobs: {
    description:
      'Clean-up jobs remove old file versions of SharePoint sites and OneDrives on a schedule; the current version of a file is never removed.',
    empty: 'There are no clean-up jobs yet.',
    create: 'Create clean-up job',
    createTitle: 'Create a clean-up job',
    editTitle: 'Edit the clean-up job',
    application: 'Sites or OneDrives',
    rule: 'Rule',
    keepNewest_one: 'Keep the newest version',
    keepNewest_other: 'Keep the newest {{count}} versions',
    olderThan: 'Remove versions older than {{date}}',
    paths_one: 'Only {{count}} chosen file or folder of the site (chosen in the file manager).',
    paths_other: 'Only {{count}} chosen files and folders of the site (chosen in the file manager).',
    created: 'The clean-up job "{{name}}" was created.',
    updated: 'The clean-up job "{{name}}" was saved.',
    ruleInvalid: 'The rule: {{problem}}',
    runs: 'Their runs are shown in Data management monitoring.',
  },
} as const;
