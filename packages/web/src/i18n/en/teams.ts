/** English texts of the Teams archive (namespaces spread into ../en.ts). */
export const teamsNamespaces = {
  teamsArchive: {
    notConfigured: 'Teams is not configured yet.',
    teams: 'Archived teams',
    channels: 'Archived channels',
    chats: 'Archived chats',
    messages: 'Archived messages',
    growth: 'Messages per day: archived, and deleted by retention',
    held_one: 'Legal hold keeps {{count}} message in {{sources}} team(s) or chat(s) from deletion.',
    held_other: 'Legal hold keeps {{count}} messages in {{sources}} team(s) or chat(s) from deletion.',
  },
} as const;
