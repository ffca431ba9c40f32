/** Query keys of the public pages: an invitation link's invitation, by its token. */
export const authKeys = {
  invitation: (token: string) => ['invitation', token] as const,
};
