import { Fragment } from 'react';

/**
 * A search snippet with its hits marked. The server wraps hits in <mark>…</mark> inside text taken
 * from archived mail: only those two tags are honoured, everything else is shown as text.
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
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one snippet have no other identity.
        return marked ? <mark key={i}>{part}</mark> : <Fragment key={i}>{part}</Fragment>;
      })}
    </>
  );
}
