/** Teams with their channels, channel messages and replies, and the chats between accounts. */

import { userOf } from './directory.js';
import { notFound, page } from './odata.js';
import { type GraphRoute, route } from './router.js';

export const teamsRoutes: GraphRoute[] = [
  ...route('GET', 'teams/:team/channels', ({ context, request, tenant, params }) => {
    const team = tenant.teams.find((t) => t.id === params.team);
    return team
      ? page(context, request, team.channels, (c) => ({ id: c.id, displayName: c.name, membershipType: 'standard' }))
      : notFound();
  }),
  ...route(
    'GET',
    ['teams/:team/channels/:channel/messages', 'teams/:team/channels/:channel/messages/:message/replies'],
    ({ context, request, tenant, params }) => {
      const channel = tenant.teams.find((t) => t.id === params.team)?.channels.find((c) => c.id === params.channel);
      if (!channel) return notFound();
      const list =
        params.message === undefined
          ? channel.messages.filter((x) => x.replyTo === null)
          : channel.messages.filter((x) => x.replyTo === params.message);
      return page(context, request, list, (x) => ({
        id: x.id,
        replyToId: x.replyTo,
        messageType: 'message',
        createdDateTime: x.created,
        lastModifiedDateTime: x.created,
        from: { user: { displayName: x.from } },
        body: { contentType: 'html', content: `<p>${x.body}</p>` },
        channelIdentity: { teamId: params.team, channelId: params.channel },
      }));
    },
  ),
  ...route('GET', 'users/:user/chats', ({ context, request, tenant, params }) => {
    const user = userOf(tenant, params.user ?? '');
    if (!user) return notFound();
    return page(
      context,
      request,
      tenant.chats.filter((c) => c.memberIds.includes(user.id)),
      (c) => ({ id: c.id, topic: c.topic, chatType: c.chatType, createdDateTime: c.created }),
    );
  }),
  ...route('GET', 'chats/:chat/members', ({ context, request, tenant, params }) => {
    const chat = tenant.chats.find((c) => c.id === params.chat);
    if (!chat) return notFound();
    return page(context, request, chat.memberIds, (id) => {
      const user = tenant.users.find((u) => u.id === id);
      return {
        '@odata.type': '#microsoft.graph.aadUserConversationMember',
        id: `${chat.id}|${id}`,
        roles: user?.hasMailbox ? ['owner'] : ['guest'],
        displayName: user?.displayName ?? null,
        userId: id,
        email: user?.hasMailbox ? user.upn : null,
      };
    });
  }),
  ...route('GET', 'chats/:chat/messages', ({ context, request, tenant, params }) => {
    const chat = tenant.chats.find((c) => c.id === params.chat);
    if (!chat) return notFound();
    return page(context, request, chat.messages, (x) => ({
      id: x.id,
      replyToId: null,
      messageType: 'message',
      chatId: chat.id,
      createdDateTime: x.created,
      lastModifiedDateTime: x.created,
      from: { user: { displayName: x.from } },
      body: { contentType: 'html', content: `<p>${x.body}</p>` },
    }));
  }),
];
