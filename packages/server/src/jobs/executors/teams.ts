/** Walking a job's teams: each readable team's channels, and each channel's messages with their replies. */
import type { Channel, ChatMessage } from '@microsoft/microsoft-graph-types';
import type { GraphApi } from '../../m365/graph-api.js';
import type { RunContext } from '../run-context.js';

/**
 * Calls `visit` for every message (replies after their message) of every channel of the job's teams.
 * A team that cannot be read fails once, for good; a channel that fails is an item failure.
 */
export async function forEachChannelMessage(
  rc: RunContext,
  graph: GraphApi,
  visit: (teamId: string, channel: Channel, message: ChatMessage) => Promise<void>,
) {
  for (const teamId of rc.job.sources) {
    rc.checkStopped();
    const channels = await rc.item(
      { key: `team:${teamId}`, name: teamId, source: teamId, wholeSource: true },
      async () => {
        const list = [];
        for await (const channel of graph.channels(teamId)) list.push(channel);
        return list;
      },
    );
    if (!channels.ok) continue;
    for (const channel of channels.value) {
      const channelId = channel.id ?? '';
      await rc.item(
        { key: `channel:${teamId}/${channelId}`, name: `${teamId}: ${channel.displayName ?? ''}`, source: teamId },
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
    }
  }
}
