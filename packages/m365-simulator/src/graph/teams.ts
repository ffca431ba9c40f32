/** Teams with their channels, channel messages and replies, and the chats between accounts. */
import { groupsOf, type SimChat, type SimChatMessage, type SimTenant } from '../model.js';
import { directoryNotFound, userOf } from './directory.js';
import { graphError, type ListOptions, page } from './odata.js';
import { type GraphRoute, route } from './router.js';

/** Teams' lists of messages and chats page up to 50, and refuse a larger `$top`. */
const MESSAGES: ListOptions = { max: 50, refuseAboveMax: true };
/** Channels and members come in one answer. */
const WHOLE: ListOptions = { unpaged: true };

const teamNotFound = (id: string) => graphError(404, 'NotFound', `No team found with Group Id ${id}`);
const chatNotFound = () => graphError(404, 'NotFound', 'Chat not found or the caller is not a member of it.');

const teamsHost = 'https://teams.microsoft.com';

function messageJson(
  tenant: SimTenant,
  x: SimChatMessage,
  where: { teamId: string; channelId: string } | { chatId: string },
) {
  const author = tenant.users.find((u) => u.displayName === x.from);
  const link =
    'chatId' in where
      ? `${teamsHost}/l/message/${encodeURIComponent(where.chatId)}/${x.id}`
      : `${teamsHost}/l/message/${encodeURIComponent(where.channelId)}/${x.id}?groupId=${where.teamId}`;
  return {
    id: x.id,
    replyToId: x.replyTo,
    etag: x.id,
    messageType: 'message',
    createdDateTime: x.created,
    lastModifiedDateTime: x.created,
    lastEditedDateTime: null,
    deletedDateTime: null,
    subject: null,
    summary: null,
    chatId: 'chatId' in where ? where.chatId : null,
    importance: 'normal',
    locale: 'en-us',
    webUrl: link,
    policyViolation: null,
    eventDetail: null,
    from: {
      application: null,
      device: null,
      user: {
        '@odata.type': '#microsoft.graph.teamworkUserIdentity',
        id: author?.id ?? null,
        displayName: x.from,
        userIdentityType: 'aadUser',
      },
    },
    body: { contentType: 'html', content: `<p>${x.body}</p>` },
    channelIdentity: 'chatId' in where ? null : { teamId: where.teamId, channelId: where.channelId },
    attachments: [],
    mentions: [],
    reactions: [],
  };
}

const chatJson = (tenant: SimTenant, c: SimChat) => ({
  id: c.id,
  topic: c.topic,
  createdDateTime: c.created,
  lastUpdatedDateTime: c.messages[c.messages.length - 1]?.created ?? c.created,
  chatType: c.chatType,
  webUrl: `${teamsHost}/l/chat/${encodeURIComponent(c.id)}/0?tenantId=${tenant.tenantId}`,
  tenantId: tenant.tenantId,
});

const teamJson = (tenant: SimTenant, team: SimTenant['teams'][number]) => ({
  id: team.id,
  createdDateTime: '2026-09-01T08:00:00Z',
  displayName: team.name,
  description: `The ${team.name} team.`,
  internalId: team.channels[0]?.id ?? null,
  classification: null,
  specialization: 'none',
  visibility: 'private',
  webUrl: `${teamsHost}/l/team/${encodeURIComponent(team.channels[0]?.id ?? team.id)}/conversations?groupId=${team.id}&tenantId=${tenant.tenantId}`,
  isArchived: false,
  tenantId: tenant.tenantId,
});

/**
 * A team as joinedTeams lists it: Microsoft documents that only the id, name, description, archive
 * state and tenant are filled in there, every other property null (Get team has them).
 */
const joinedTeamJson = (tenant: SimTenant, team: SimTenant['teams'][number]) => ({
  ...Object.fromEntries(Object.keys(teamJson(tenant, team)).map((key) => [key, null])),
  id: team.id,
  displayName: team.name,
  description: `The ${team.name} team.`,
  isArchived: false,
  tenantId: tenant.tenantId,
});

const channelJson = (tenant: SimTenant, teamId: string, c: SimTenant['teams'][number]['channels'][number]) => ({
  id: c.id,
  createdDateTime: '2026-09-01T08:00:00Z',
  displayName: c.name,
  description: c.name === 'General' ? 'The team’s general channel.' : null,
  isFavoriteByDefault: null,
  email: null,
  webUrl: `${teamsHost}/l/channel/${encodeURIComponent(c.id)}/${encodeURIComponent(c.name)}?groupId=${teamId}&tenantId=${tenant.tenantId}`,
  membershipType: 'standard',
  tenantId: tenant.tenantId,
});

export const teamsRoutes: GraphRoute[] = [
  ...route('GET', 'teams/:team', ({ tenant, params }) => {
    const team = tenant.teams.find((t) => t.id === params.team);
    return team ? { status: 200, json: teamJson(tenant, team) } : teamNotFound(params.team ?? '');
  }),
  ...route('GET', 'teams/:team/channels', ({ context, request, tenant, params }) => {
    const team = tenant.teams.find((t) => t.id === params.team);
    return team
      ? page(context, request, team.channels, (c) => channelJson(tenant, team.id, c), WHOLE)
      : teamNotFound(params.team ?? '');
  }),
  ...route('GET', 'teams/:team/channels/:channel', ({ tenant, params }) => {
    const team = tenant.teams.find((t) => t.id === params.team);
    const channel = team?.channels.find((c) => c.id === params.channel);
    if (!team) return teamNotFound(params.team ?? '');
    return channel
      ? { status: 200, json: channelJson(tenant, team.id, channel) }
      : graphError(404, 'NotFound', 'Channel not found.');
  }),
  ...route(
    'GET',
    ['teams/:team/channels/:channel/messages', 'teams/:team/channels/:channel/messages/:message/replies'],
    ({ context, request, tenant, params }) => {
      const team = tenant.teams.find((t) => t.id === params.team);
      const channel = team?.channels.find((c) => c.id === params.channel);
      if (!team || !channel)
        return team ? graphError(404, 'NotFound', 'Channel not found.') : teamNotFound(params.team ?? '');
      if (params.message !== undefined && !channel.messages.some((x) => x.id === params.message))
        return graphError(404, 'NotFound', 'Message not found.');
      const list =
        params.message === undefined
          ? channel.messages.filter((x) => x.replyTo === null)
          : channel.messages.filter((x) => x.replyTo === params.message);
      const where = { teamId: team.id, channelId: channel.id };
      return page(context, request, list, (x) => messageJson(tenant, x, where), MESSAGES);
    },
  ),
  ...route('GET', 'teams/:team/channels/:channel/messages/:message', ({ tenant, params }) => {
    const team = tenant.teams.find((t) => t.id === params.team);
    const channel = team?.channels.find((c) => c.id === params.channel);
    const message = channel?.messages.find((x) => x.id === params.message && x.replyTo === null);
    if (!team || !channel || !message) return graphError(404, 'NotFound', 'Message not found.');
    return { status: 200, json: messageJson(tenant, message, { teamId: team.id, channelId: channel.id }) };
  }),
  ...route('GET', 'users/:user/chats', ({ context, request, tenant, params }) => {
    const user = userOf(tenant, params.user ?? '');
    if (!user) {
      return graphError(
        404,
        'Request_ResourceNotFound',
        `Resource '${params.user ?? ''}' does not exist or one of its queried reference-property objects are not present.`,
      );
    }
    return page(
      context,
      request,
      tenant.chats.filter((c) => c.memberIds.includes(user.id)),
      (c) => chatJson(tenant, c),
      MESSAGES,
    );
  }),
  // The teams a user is a direct member of: those whose group lists them.
  ...route(
    'GET',
    'users/:user/joinedTeams',
    ({ context, request, tenant, params }) => {
      const user = userOf(tenant, params.user ?? '');
      if (!user) return directoryNotFound(params.user ?? '');
      const member = new Set(
        groupsOf(tenant)
          .filter((g) => g.members.some((m) => m.id === user.id))
          .map((g) => g.id),
      );
      return page(
        context,
        request,
        tenant.teams.filter((t) => member.has(t.id)),
        (t) => joinedTeamJson(tenant, t),
        WHOLE,
      );
    },
    { context: 'teams' },
  ),
  ...route('GET', 'chats/:chat', ({ tenant, params }) => {
    const chat = tenant.chats.find((c) => c.id === params.chat);
    return chat ? { status: 200, json: chatJson(tenant, chat) } : chatNotFound();
  }),
  ...route('GET', 'chats/:chat/members', ({ context, request, tenant, params }) => {
    const chat = tenant.chats.find((c) => c.id === params.chat);
    if (!chat) return chatNotFound();
    return page(
      context,
      request,
      chat.memberIds,
      (id) => {
        const user = tenant.users.find((u) => u.id === id);
        return {
          '@odata.type': '#microsoft.graph.aadUserConversationMember',
          id: Buffer.from(`${chat.id}|${id}`).toString('base64url'),
          roles: user?.hasMailbox ? ['owner'] : ['guest'],
          displayName: user?.displayName ?? null,
          visibleHistoryStartDateTime: '0001-01-01T00:00:00Z',
          userId: id,
          email: user?.hasMailbox ? user.upn : null,
          tenantId: tenant.tenantId,
        };
      },
      WHOLE,
    );
  }),
  ...route('GET', 'chats/:chat/messages', ({ context, request, tenant, params }) => {
    const chat = tenant.chats.find((c) => c.id === params.chat);
    if (!chat) return chatNotFound();
    return page(context, request, chat.messages, (x) => messageJson(tenant, x, { chatId: chat.id }), MESSAGES);
  }),
  ...route('GET', 'chats/:chat/messages/:message', ({ tenant, params }) => {
    const chat = tenant.chats.find((c) => c.id === params.chat);
    const message = chat?.messages.find((x) => x.id === params.message);
    if (!chat || !message) return graphError(404, 'NotFound', 'Message not found.');
    return { status: 200, json: messageJson(tenant, message, { chatId: chat.id }) };
  }),
];
