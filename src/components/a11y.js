// Loaded on every page by observablehq.config.ts (`head`): accessible names
// the libraries leave out, added as cells render.
// - Inputs.range labels only its number box (<label for>); its slider gets
//   the same text as aria-label.
// - Plot puts aria-label on <g> elements without a role (ARIA forbids a name
//   on a generic element); they become role="group".
// - A box that scrolls (a wide table, a long code block, Inputs.table) must
//   be reachable from the keyboard: it gets tabindex="0" while it overflows.
// - The phone's section navigation closes when a section is chosen (below).
// Cheap by design (Lighthouse measured 4.4 s of main thread when every
// mutation re-scanned the page and read scroll sizes): names and roles are set
// on each added subtree as it arrives (no layout read); the overflow of a
// scrolling box is read when the browser has laid it out.
// scripts/check-build.mjs checks this file is linked from every built page;
// the e2e run checks every slider, every named <g> and every scrolling box in Chromium.

/** Boxes that may scroll (src/style.css gives tables and code blocks their own scrollbar). */
export const SCROLLERS = "#observablehq-main table, #observablehq-main pre, #observablehq-main .katex-display, #observablehq-main form[class*='-table']";

/** Elements matching `selector` at or under `el`. */
const within = (el, selector) => [...(el.matches(selector) ? [el] : []), ...el.querySelectorAll(selector)];

/** Gives a box tabindex="0" while it overflows, and takes it back when it no longer does. */
function updateTabindex(box) {
  const scrolls = box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1;
  if (scrolls && !box.hasAttribute("tabindex")) box.setAttribute("tabindex", "0"), box.setAttribute("data-a11y-tabindex", "");
  else if (!scrolls && box.hasAttribute("data-a11y-tabindex")) box.removeAttribute("tabindex"), box.removeAttribute("data-a11y-tabindex");
}

/** Adds the missing names and roles at and under `el` (no layout is read: cheap on every change). */
export function fixNames(el) {
  for (const input of within(el, 'input[type="range"]:not([aria-label]):not([aria-labelledby])')) {
    const form = input.closest("form");
    const label = form?.querySelector("label")?.textContent?.trim();
    const number = form?.querySelector('input[type="number"]');
    input.setAttribute("aria-label", label || number?.getAttribute("aria-label") || "value");
  }
  for (const g of within(el, "svg g[aria-label]:not([role])")) g.setAttribute("role", "group");
  // Reachable by keyboard from the start; the ResizeObserver below takes tabindex back from boxes that do not overflow.
  for (const box of within(el, SCROLLERS)) if (!box.hasAttribute("tabindex")) box.setAttribute("tabindex", "0"), box.setAttribute("data-a11y-tabindex", "");
}

if (typeof document !== "undefined") {
  // Names and roles: on each added subtree at once (a query, no layout). Whether a scrolling box
  // overflows is read when the browser has just laid the box out (a ResizeObserver: it reports a
  // box when it first gets a size and whenever that size changes), so no layout is forced: reading
  // every box's sizes on open would lay out the whole page, including the blocks the browser
  // skips while they are off screen (content-visibility, src/style.css).
  const sized = new ResizeObserver((entries) => { for (const e of entries) if (e.contentRect.width > 0) updateTabindex(e.target); });
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) if (n.nodeType === 1) { fixNames(n); for (const box of within(n, SCROLLERS)) sized.observe(box); }
  }).observe(document.documentElement, { subtree: true, childList: true });
  fixNames(document.documentElement);
  for (const box of within(document.documentElement, SCROLLERS)) sized.observe(box);
}

// The phone's section navigation (scripts/navigation.mjs) closes once a section is chosen, or on
// Escape (its list would otherwise cover the section the reader asked for).
if (typeof document !== "undefined") {
  const close = (details) => { if (details?.open) details.open = false; };
  document.addEventListener("click", (e) => { if (e.target instanceof Element && e.target.closest(".phone-toc a")) close(e.target.closest("details")); });
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    const open = document.querySelector(".phone-toc details[open]");
    if (open) close(open), open.querySelector("summary")?.focus();
  });
}

// An in-page link (the Sections list, the table of contents, a "What to remember" box) must land on
// its section. The browser lays out the blocks it skipped (content-visibility, src/style.css) only
// when they near the screen: a jump to the glossary drew the references above it, taller than their
// 120 px placeholder, after the jump, and left the glossary 1,200 px below the screen (1,900 on a
// phone). So the section is scrolled to again on the next frames until it stays where it is; a
// reader's own scroll (wheel, touch, key) ends that at once.
/** Scrolls to `target` on each of the next frames until its position stops changing (at most `frames` times). */
let settling = 0; // the latest call's number: a click and its hashchange start one settling, not two
export function settleOn(target, frames = 12) {
  const me = ++settling;
  let previous = NaN, left = frames, cancelled = false;
  const cancel = () => { cancelled = true; };
  const events = ["wheel", "touchstart", "keydown"];
  for (const e of events) addEventListener(e, cancel, { once: true, passive: true });
  const done = () => { for (const e of events) removeEventListener(e, cancel); };
  const step = () => {
    if (cancelled || me !== settling || !target.isConnected) return done();
    const top = target.getBoundingClientRect().top;
    if (Math.abs(top - previous) < 1 || left-- <= 0) return done();
    previous = top;
    target.scrollIntoView({ block: "start" });
    previous = target.getBoundingClientRect().top;
    requestAnimationFrame(() => requestAnimationFrame(step));
  };
  requestAnimationFrame(() => requestAnimationFrame(step));
}

if (typeof document !== "undefined") {
  const targetOf = (hash) => { try { return hash.length > 1 ? document.getElementById(decodeURIComponent(hash.slice(1))) : null; } catch { return null; } };
  document.addEventListener("click", (e) => {
    const a = e.target instanceof Element ? e.target.closest('a[href*="#"]') : null;
    if (!a || a.origin !== location.origin || a.pathname !== location.pathname) return;
    const target = targetOf(a.hash);
    if (target && target.id !== "observablehq-main") settleOn(target);
  });
  addEventListener("hashchange", () => { const t = targetOf(location.hash); if (t && t.id !== "observablehq-main") settleOn(t); });
  if (location.hash) addEventListener("load", () => { const t = targetOf(location.hash); if (t) settleOn(t); }, { once: true });
}
