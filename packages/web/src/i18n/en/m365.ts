/**
 * English texts of a Microsoft 365 failure as every screen that reads Microsoft 365 shows it: what
 * could not be done (each screen its own), the details support asks for, and the filters' states. The
 * cause's own sentence with its remedy is the SDK's error catalogue (`apiErrors:m365…`).
 */
export const m365Namespaces = {
  m365: {
    connectionFailed: 'The connection to {{name}} failed.',
    lists: {
      onedrive: 'The OneDrive accounts could not be loaded.',
      sharepoint: 'The SharePoint sites could not be loaded.',
      teams: 'The teams could not be loaded.',
      exchange: 'The mailboxes could not be loaded.',
      accounts: 'The accounts could not be loaded.',
    },
    versions: 'The versions of {{name}} could not be loaded.',
    preview: 'What the clean-up would remove could not be worked out.',
    dashboard: 'The storage analysis could not read the tenant’s SharePoint sites.',
    teamsDashboard: 'The Teams archive figures could not be loaded.',
    proxyAccounts: 'The mailboxes and groups that can hold proxy rights could not be loaded.',
    missing: 'Missing: {{permission}}, needed by {{areas}}.',
    wait_one: 'Microsoft asks to wait {{count}} second before the next try.',
    wait_other: 'Microsoft asks to wait {{count}} seconds before the next try.',
    waitMinutes_one: 'Microsoft asks to wait {{count}} minute before the next try.',
    waitMinutes_other: 'Microsoft asks to wait {{count}} minutes before the next try.',
    address: 'Address: {{host}}',
    details: 'Technical details',
    copy: 'Copy details',
    copied: 'Details copied. Paste them into your request to support.',
    copyFailed: 'The details could not be copied: select them under “Technical details” and copy them.',
    copyTitle: 'Microsoft 365 failure',
    fields: {
      cause: 'Cause',
      status: 'HTTP status',
      aadsts: 'AADSTS code',
      error: 'Error code',
      requestId: 'Request ID',
      clientRequestId: 'Client request ID',
      correlationId: 'Correlation ID',
      traceId: 'Trace ID',
      timestamp: 'Time at Microsoft',
      retryAfter: 'Retry-After (seconds)',
      host: 'Address',
      permissions: 'Missing permissions',
      message: 'Microsoft’s message',
      portalRequestId: 'Portal request ID',
      portalStatus: 'Portal HTTP status',
    },
    filters: {
      loadingMailboxes: 'Loading mailboxes…',
      loadingTeams: 'Loading teams…',
      noMailboxes: 'No mailbox was found in Microsoft 365.',
      noTeams: 'No team was found in Microsoft 365.',
      noLocation: 'Mailboxes and teams are listed once the tenant has a storage location.',
    },
  },
} as const;
