/**
 * The search parameters of /account/settings. A module of its own, without components: the route
 * validates its search in the entry's route tree, and importing the page from there would put the
 * page's components (tabs, dialogs, clipboard, checkboxes) in what loads before the first page.
 */
export const ACCOUNT_TABS = ['notifications', 'security', 'activity'] as const;
export type AccountTab = (typeof ACCOUNT_TABS)[number];

export interface AccountSettingsSearch {
  tab?: AccountTab;
  page?: number;
}

/** The route's search parameters: a known tab, and a page number of the activity from 1. */
export function accountSettingsSearch(search: Record<string, unknown>): AccountSettingsSearch {
  const tab = ACCOUNT_TABS.find((known) => known === search.tab);
  const page = Number(search.page);
  return {
    ...(tab ? { tab } : {}),
    ...(Number.isInteger(page) && page > 1 && page <= 10_000 ? { page } : {}),
  };
}
