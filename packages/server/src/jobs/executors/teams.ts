/**
 * Walking a job's teams (each readable team's channels, each channel's messages with their replies)
 * and its accounts' chats (each chat once, however many of the accounts are in it).
 */
import type { Channel, Chat, ChatMessage } from '@microsoft/microsoft-graph-types';
import type { GraphApi } from '../../m365/graph-api.js';
import type { WorkPart } from '../progress.js';
import type { RunContext } from '../run-context.js';

/**
 * Calls `visit` for every message (replies after their message) of every channel of the job's teams.
 * A team that cannot be read fails once, for good; a channel that fails is an item failure. `work`
 * (the run's by default) is split into the teams, each team into its channels: a channel's messages
 * come one by one with no count ahead, so a channel counts as done once it is read to its end.
 */
export async function forEachChannelMessage(
  rc: RunContext,
  graph: GraphApi,
  visit: (teamId: string, channel: Channel, message: ChatMessage) => Promise<void>,
  work: WorkPart = rc.work,
) {
  const parts = work.split(rc.job.sources.length);
  for (const [index, teamId] of rc.job.sources.entries()) {
    rc.checkStopped();
    const part = parts[index] as WorkPart;
    const channels = await rc.item(
      { key: `team:${teamId}`, name: teamId, source: teamId, wholeSource: true, part },
      async () => {
        const list = [];
        for await (const channel of graph.channels(teamId)) list.push(channel);
        return list;
      },
    );
    if (!channels.ok) continue;
    const channelParts = part.split(channels.value.length);
    for (const [at, channel] of channels.value.entries()) {
      const channelId = channel.id ?? '';
      const channelPart = channelParts[at] as WorkPart;
      await rc.item(
        {
          key: `channel:${teamId}/${channelId}`,
          name: channel.displayName || 'Channel without a name',
          source: teamId,
          part: channelPart,
        },
        async () => {
          for await (const message of graph.channelMessages(teamId, channelId)) {
            rc.checkStopped();
            await visit(teamId, channel, message);
            for await (const reply of graph.messageReplies(teamId, channelId, message.id ?? '')) {
              await visit(teamId, channel, reply);
            }
          }
        },
      );
      channelPart.end();
    }
  }
}

/** A chat as the archive keeps it. */
export interface ChatInfo {
  chatId: string;
  chatType: string;
  topic: string | null;
  members: { userId: string; displayName: string }[];
}

/**
 * Calls `open` once per chat of the accounts (with its members), then `visit` for each of its
 * messages; system events (members added, topic changed) are not messages and are skipped. An
 * account whose chats cannot be listed fails once, for good; a chat that fails is an item failure.
 * `work` is split into the accounts, each account into its chats, each done once read to its end.
 */
export async function forEachChatMessage(
  rc: RunContext,
  graph: GraphApi,
  accounts: readonly string[],
  open: (chat: ChatInfo) => Promise<string>,
  visit: (chat: ChatInfo, name: string, message: ChatMessage, account: string) => Promise<void>,
  work: WorkPart,
) {
  const seen = new Set<string>();
  const parts = work.split(accounts.length);
  for (const [index, account] of accounts.entries()) {
    rc.checkStopped();
    const part = parts[index] as WorkPart;
    if (await rc.isKnownFailure(`chats:${account}`)) {
      part.end();
      continue;
    }
    const chats = await rc.item(
      { key: `chats:${account}`, name: account, source: account, wholeSource: true, part },
      async () => {
        const list: Chat[] = [];
        for await (const chat of graph.userChats(account)) list.push(chat);
        return list;
      },
    );
    if (!chats.ok) continue;
    const chatParts = part.split(chats.value.length);
    for (const [at, chat] of chats.value.entries()) {
      const chatId = chat.id ?? '';
      const chatPart = chatParts[at] as WorkPart;
      if (!chatId || seen.has(chatId)) {
        chatPart.end();
        continue;
      }
      seen.add(chatId);
      await rc.item(
        { key: `chat:${chatId}`, name: chat.topic || 'Chat without a topic', source: account, part: chatPart },
        async () => {
          const members: ChatInfo['members'] = [];
          for await (const m of graph.chatMembers(chatId))
            if (m.userId) members.push({ userId: m.userId, displayName: m.displayName ?? '' });
          const info: ChatInfo = { chatId, chatType: chat.chatType ?? 'group', topic: chat.topic ?? null, members };
          const name = await open(info);
          for await (const message of graph.chatMessages(chatId)) {
            rc.checkStopped();
            if (message.messageType && message.messageType !== 'message') continue;
            await visit(info, name, message, account);
          }
        },
      );
      chatPart.end();
    }
  }
}
