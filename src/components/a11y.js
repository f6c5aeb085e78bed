// Loaded on every page by observablehq.config.ts (`head`): accessible names
// the libraries leave out, added as cells render.
// - Inputs.range labels only its number box (<label for>); its slider gets
//   the same text as aria-label.
// - Plot puts aria-label on <g> elements without a role (ARIA forbids a name
//   on a generic element); they become role="group".
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
}

if (typeof document !== "undefined") {
  let scheduled = false;
  const run = () => { scheduled = false; fixAccessibleNames(document); };
  new MutationObserver(() => {
    if (!scheduled) { scheduled = true; queueMicrotask(run); }
  }).observe(document.documentElement, { subtree: true, childList: true });
  run();
}
