import { Fragment } from 'react';

/** The five entities the server escapes a snippet's text with. */
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** A snippet's escaped text as the text it stands for (decoded once: "&amp;lt;" stays "&lt;"). */
function unescapeSnippetText(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity);
}

/**
 * A search snippet with its hits marked. The server escapes the archived text and wraps the hits in
 * <mark>…</mark>, its only markup: the snippet is split at those tags and every other part is decoded
 * and shown as text, never inserted as HTML.
 */
export function Highlighted({ snippet }: { snippet: string }) {
  const parts = snippet.split(/(<mark>|<\/mark>)/);
  let marked = false;
  return (
    <>
      {parts.map((part, i) => {
        if (part === '<mark>') {
          marked = true;
          return null;
        }
        if (part === '</mark>') {
          marked = false;
          return null;
        }
        const text = unescapeSnippetText(part);
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one snippet have no other identity.
        return marked ? <mark key={i}>{text}</mark> : <Fragment key={i}>{text}</Fragment>;
      })}
    </>
  );
}
