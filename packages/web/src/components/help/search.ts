/**
 * The search parameters of /helpcenter: the topic to open and the article to show (`?topic=backup&article=a2`).
 * A module of its own, without the topics: the route validates its search in the entry's route tree,
 * and the help center ignores a topic or article it does not have.
 */
export interface HelpcenterSearch {
  topic?: string;
  article?: string;
}

/** The route's search parameters: a topic id and an article id (a1, a2, …) as the topics spell them. */
export function helpcenterSearch(search: Record<string, unknown>): HelpcenterSearch {
  const { topic, article } = search;
  const validTopic = typeof topic === 'string' && /^[A-Za-z]{1,40}$/.test(topic) ? topic : undefined;
  if (!validTopic) return {};
  const validArticle = typeof article === 'string' && /^a[0-9]{1,2}$/.test(article) ? article : undefined;
  return validArticle ? { topic: validTopic, article: validArticle } : { topic: validTopic };
}
