/** English texts of offline use and updates (namespaces spread into ../en.ts). */
export const offlineNamespaces = {
  offline: {
    banner: 'You are offline.',
    shownSaved: 'The data shown was saved {{age}}.',
    nothingSaved: 'No data is saved for offline use on this page yet.',
    actionsDisabled: 'Actions that need the server are disabled until the connection returns.',
    actionDisabled: 'Not available offline: this needs the server.',
    notSaved: 'This list was not saved for offline use. It loads when the connection returns.',
    partlySaved: 'The rest of this page was not saved for offline use; it loads when the connection returns.',
    back: 'You are online again. The data is being refreshed.',
    justNow: 'just now',
    updateAvailable: 'A new version of the portal is available.',
    updateHelp: 'Reload to use it. Unsaved input on this page is lost.',
    reload: 'Reload',
    later: 'Later',
  },
} as const;
