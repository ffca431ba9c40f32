/**
 * Microsoft Graph application permissions (app roles) a tenant's administrator grants an app
 * registration. A simulated tenant's consent set becomes the `roles` claim of its tokens.
 */

/** Every application permission the simulated Graph paths need; a tenant's consent set by default. */
export const ALL_APPLICATION_PERMISSIONS: readonly string[] = Object.freeze([
  // users, their drives, mailboxes and chats
  'User.Read.All',
  // drives, items, versions, content, permissions, uploads and version restore or removal
  'Files.ReadWrite.All',
  // sites and their document libraries
  'Sites.ReadWrite.All',
  // mail folders, messages, delta and MIME, folder creation and MIME import
  'Mail.ReadWrite',
  // groups and their members
  'Group.Read.All',
  // teams, their channels and members
  'Team.ReadBasic.All',
  'Channel.ReadBasic.All',
  'TeamMember.Read.All',
  // channel messages and replies
  'ChannelMessage.Read.All',
  // chats, their members and messages
  'Chat.Read.All',
]);
