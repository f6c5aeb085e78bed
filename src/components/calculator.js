// Calculators (issue 27): results beside their inputs, errors at the field that caused them.
// The layout is src/components/calculator.css (loaded by src/style.css); this module gives a page
// the pieces its cells display:
//
//   const gpus = view(Inputs.range([1, 1024], {label: "GPUs (all)", step: 1, value: 8}));
//   const gpusError = display(fieldError("gpus"));          // right under the field
//   …
//   const current = tryEstimate();                           // {r} or {error}
//   showFieldError(current.error, {numGpus: gpusError, tensorParallel: tpError}, otherError);
//   display(resultsPanel({verdict: …, body: …, error: current.error}));
//
// A lib error names its field (CONTRIBUTING: "a clear error naming the field"); showFieldError puts
// the message at the field it names first, and the results panel says where it is.
import {html} from "htl";

let next = 0;

/**
 * An empty, hidden slot for the error of one field, to display right under that field. It is a
 * polite live region, so a screen reader hears the message when it appears.
 * @param {string} name a short name for its id (`field-error-<name>-<n>`)
 * @returns {HTMLElement}
 */
export function fieldError(name) {
  const slot = html`<p class="field-error" role="status" aria-live="polite" hidden></p>`;
  slot.id = `field-error-${name}-${++next}`;
  slot.dataset.field = name;
  return slot;
}

/**
 * Shows `error` under every field its message names (a rule between two fields is shown at both:
 * the reader may have just changed either), and clears every other slot; with no error, clears
 * them all.
 * @param {Error|string|null|undefined} error the error (or its message) of the last computation
 * @param {Record<string, HTMLElement>} slots field name as the message spells it → its slot
 * @param {HTMLElement} [fallback] the slot for a message that names no field
 * @returns {HTMLElement|null} the slot of the field named first (where the results panel links)
 * @example showFieldError(new RangeError("numGpus (6) must be a multiple of tensorParallel (4)"), {numGpus: a, tensorParallel: b}) // a (and b shows it too)
 */
export function showFieldError(error, slots, fallback) {
  const message = error == null ? "" : typeof error === "string" ? error : error.message ?? String(error);
  const named = Object.entries(slots).map(([field, slot]) => ({slot, i: message ? message.indexOf(field) : -1})).filter((x) => x.i >= 0).sort((a, b) => a.i - b.i).map((x) => x.slot);
  if (message && named.length === 0 && fallback) named.push(fallback);
  for (const slot of new Set([...Object.values(slots), ...(fallback ? [fallback] : [])])) {
    const shown = named.includes(slot);
    slot.hidden = !shown;
    slot.textContent = shown ? `⚠ ${message}` : "";
  }
  return named[0] ?? null;
}

/**
 * The results box of a calculator: its verdict first (the line a reader looks for), then the
 * rest. With an error it says where the message is (the field's slot), so the reader who watches
 * the results is sent to the field. `data-calc-result` marks it for the e2e run, which checks it
 * stays in view while an input changes.
 * @param {{verdict?: Node|string, body?: Node|string, error?: Error|string|null, at?: HTMLElement|null, label?: string}} o
 * @returns {HTMLElement}
 */
export function resultsPanel({verdict = "", body = "", error = null, at = null, label = "Results"}) {
  const message = error == null ? "" : typeof error === "string" ? error : error.message ?? String(error);
  const panel = html`<section class="calc-panel" data-calc-result aria-label=${label}></section>`;
  if (message) {
    panel.append(html`<p class="calc-verdict">✗ No result: ${at ? html`<a href=${`#${at.id}`}>the input marked ⚠</a> cannot be used as it is.` : message}</p>`);
    if (at) panel.append(html`<p class="calc-sub">${message}</p>`);
  } else {
    if (verdict) panel.append(html`<p class="calc-verdict">${verdict}</p>`);
    if (body) panel.append(...unwrap(body));
  }
  return panel;
}

/** The nodes of an html`` result: htl wraps several top-level nodes in a bare <span>. */
function unwrap(node) {
  if (typeof node === "string") return [node];
  return node instanceof HTMLSpanElement && node.attributes.length === 0 ? [...node.childNodes] : [node];
}

/**
 * The one-line result that stays at the foot of a phone's screen while the inputs are on it
 * (`<div class="calculator-headline">`; hidden on a wide screen, where the panel is beside them).
 * @param {Node|string} content
 * @returns {HTMLElement}
 */
export function headline(content) {
  return html`<p class="calc-headline" data-calc-headline style="margin:0">${content}</p>`;
}
