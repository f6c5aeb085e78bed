// Loaded on every page by observablehq.config.ts (`head`): accessible names
// the libraries leave out, added as cells render.
// - Inputs.range labels only its number box (<label for>); its slider gets
//   the same text as aria-label.
// - Plot puts aria-label on <g> elements without a role (ARIA forbids a name
//   on a generic element); they become role="group".
// - A box that scrolls (a wide table, a long code block, Inputs.table) must
//   be reachable from the keyboard: it gets tabindex="0" while it overflows.
// test/site.test.ts checks this file is linked from every built page; the
// e2e run checks every slider and every named <g> in Chromium.

/** Adds the missing names and roles under `root`. */
export function fixAccessibleNames(root = document) {
  for (const input of root.querySelectorAll('input[type="range"]:not([aria-label]):not([aria-labelledby])')) {
    const form = input.closest("form");
    const label = form?.querySelector("label")?.textContent?.trim();
    const number = form?.querySelector('input[type="number"]');
    input.setAttribute("aria-label", label || number?.getAttribute("aria-label") || "value");
  }
  for (const g of root.querySelectorAll("svg g[aria-label]:not([role])")) g.setAttribute("role", "group");
  for (const box of root.querySelectorAll(SCROLLERS)) {
    const scrolls = box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1;
    if (scrolls && !box.hasAttribute("tabindex")) box.setAttribute("tabindex", "0"), box.setAttribute("data-a11y-tabindex", "");
    else if (!scrolls && box.hasAttribute("data-a11y-tabindex")) box.removeAttribute("tabindex"), box.removeAttribute("data-a11y-tabindex");
  }
}

/** Boxes that may scroll (src/style.css gives tables and code blocks their own scrollbar). */
export const SCROLLERS = "#observablehq-main table, #observablehq-main pre, #observablehq-main .katex-display, #observablehq-main form[class*='-table']";

if (typeof document !== "undefined") {
  let scheduled = false;
  const run = () => { scheduled = false; fixAccessibleNames(document); };
  new MutationObserver(() => {
    if (!scheduled) { scheduled = true; requestAnimationFrame(run); }
  }).observe(document.documentElement, { subtree: true, childList: true });
  addEventListener("resize", () => { if (!scheduled) { scheduled = true; requestAnimationFrame(run); } });
  run();
}
