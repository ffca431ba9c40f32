import type { Leaves } from '../en';
import type { teamsNamespaces as En } from '../en/teams';

/** German texts of the Teams archive: the same keys as the English ones. */
export const teamsNamespaces: Leaves<typeof En> = {
  teamsArchive: {
    notConfigured: 'Teams ist noch nicht konfiguriert.',
    teams: 'Archivierte Teams',
    channels: 'Archivierte Kanäle',
    chats: 'Archivierte Chats',
    messages: 'Archivierte Nachrichten',
    growth: 'Nachrichten pro Tag: archiviert und durch Aufbewahrung gelöscht',
    sourceCount_one: '{{n}} Team oder Chat',
    sourceCount_other: '{{n}} Teams oder Chats',
    held_one: 'Legal Hold bewahrt {{count}} Nachricht in {{sources}} vor dem Löschen.',
    held_other: 'Legal Hold bewahrt {{count}} Nachrichten in {{sources}} vor dem Löschen.',
  },
};
