/** English texts of the Teams archive (namespaces spread into ../en.ts). */
export const teamsNamespaces = {
  teamsArchive: {
    notConfigured: 'Teams is not configured yet.',
    teams: 'Archived teams',
    channels: 'Archived channels',
    chats: 'Archived chats',
    messages: 'Archived messages',
    growth: 'Messages per day: archived, and deleted by retention',
    sourceCount_one: '{{n}} team or chat',
    sourceCount_other: '{{n}} teams or chats',
    held_one: 'Legal hold keeps {{count}} message in {{sources}} from deletion.',
    held_other: 'Legal hold keeps {{count}} messages in {{sources}} from deletion.',
  },
} as const;
