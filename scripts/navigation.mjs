// Navigation that Framework 1.13's page template lacks (issue 27), written into every built page by
// the post-build step (scripts/postbuild.mjs), as static HTML that works before any script runs:
// - skip links, the first things a keyboard reaches: "Skip to the content" (the page's <main>) and,
//   on a page with a calculator (src/components/calculator.css), "Skip to the calculator" (its
//   first one; from the top of /memory its first input was 53 Tab presses away);
// - a section navigation for the screens where Framework hides its table of contents (below
//   912 px, or below 1248 px with the sidebar open: a phone, where a chapter is 18,000–29,000 px
//   long): a "Sections" button fixed at the foot of the screen that opens the same list of links
//   (<details>; src/components/navigation.css, closed again by src/components/a11y.js when a link
//   is followed).
// The e2e run checks both in Chromium at 390 px (scripts/phone-nav-check.mjs).

/** The id given to a page's first calculator, the target of its skip link. */
export const FIRST_CALCULATOR = "first-calculator";

/**
 * The links of Framework's table of contents (`<aside id="observablehq-toc">`), as they are.
 * @param {string} html a built page
 * @returns {string[]} its `<li …><a href="#…">…</a></li>` items, in page order
 */
export function tocItems(html) {
  const toc = /<aside id="observablehq-toc"[^>]*>([\s\S]*?)<\/aside>/.exec(html)?.[1] ?? "";
  return [...toc.matchAll(/<li class="observablehq-secondary-link">[\s\S]*?<\/li>/g)].map((m) => m[0]);
}

/**
 * Adds the skip links and the phone's section navigation to a built page; a page that has them
 * already is returned as it is (idempotent).
 * @param {string} html a built page
 * @returns {string}
 */
export function addNavigation(html) {
  if (html.includes('class="skip-links"') || !/<main id="observablehq-main"/.test(html)) return html;
  let out = html;
  const calculator = /<div class="calculator(?=[\s"])([^>]*)>/.exec(out);
  if (calculator && !/\bid="/.test(calculator[1])) out = out.replace(calculator[0], calculator[0].replace("<div ", `<div id="${FIRST_CALCULATOR}" `));
  const target = calculator ? (/\bid="([^"]+)"/.exec(calculator[1])?.[1] ?? FIRST_CALCULATOR) : null;
  const skips = `<nav class="skip-links" aria-label="Skip links"><a class="skip-link" href="#observablehq-main">Skip to the content</a>${target ? `<a class="skip-link" href="#${target}">Skip to the calculator</a>` : ""}</nav>`;
  out = out.replace(/<body([^>]*)>/, (m) => `${m}\n${skips}`);
  // <main> takes the focus when its skip link is followed (tabindex -1: not a tab stop itself).
  out = out.replace(/<main id="observablehq-main"(?![^>]*tabindex)/, '<main id="observablehq-main" tabindex="-1"');
  const items = tocItems(out);
  if (items.length >= 2) {
    const nav = `<nav class="phone-toc" aria-label="Sections of this page"><details><summary>Sections</summary><ol>\n${items.join("\n")}\n</ol></details></nav>\n`;
    out = out.replace(/<main id="observablehq-main"/, `${nav}$&`);
  }
  return out;
}
