/**
 * The breakpoint check itself (layoutProblems of browser.ts), on pages of its own: a page that answers
 * a narrower window a while after it changed (as the tables' phone layout does, a render later, later
 * still on a busy machine) is measured once it has answered; a page that stays too wide is named.
 */
import { describe, expect, it } from 'vitest';
import { layoutProblems, useBrowserSession } from './browser';

const session = useBrowserSession();

/** A block 1,000 px wide; narrowed to the window `narrowAfter` ms after the window is at most 500 px. */
function page(narrowAfter: number | null): string {
  const script =
    narrowAfter === null
      ? ''
      : `<script>
          const query = matchMedia('(max-width: 500px)');
          query.addEventListener('change', () => {
            if (query.matches) setTimeout(() => { document.getElementById('wide').style.width = '100%'; }, ${narrowAfter});
          });
        </script>`;
  return `<!doctype html><html lang="en"><head><title>Layout</title></head>
    <body style="margin:0"><main><div id="wide" style="width:1000px">Wide</div></main>${script}</body></html>`;
}

describe('the breakpoint check', () => {
  it('measures a page once it has answered the narrower window', async () => {
    const tab = await session.newPage({ viewport: { width: 1350, height: 900 } });
    await tab.setContent(page(1_500));
    expect(await layoutProblems(tab, 'late', { widths: [320], axeAt: [] })).toEqual([]);
  });

  it('names what still reaches past the edge of a page that stays too wide', async () => {
    const tab = await session.newPage({ viewport: { width: 1350, height: 900 } });
    await tab.setContent(page(null));
    expect(await layoutProblems(tab, 'wide', { widths: [320], axeAt: [] })).toEqual([
      'wide at 320px scrolls sideways by 680px: div "Wide"',
    ]);
  });
});
