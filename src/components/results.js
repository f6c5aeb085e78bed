// A student's own results in the site, in `npm run dev` only. `npm test
// exercises` writes them to src/data/my-results.json (ignored by git,
// exercises/harness/results.ts); Framework's preview serves any file of src/
// under /_file/, so the page reads it there, again every few seconds (no page
// references the file, so a build never copies it into dist/, and the
// published site never asks for it).

/** Where the preview serves the results file. */
export const RESULTS_URL = "/_file/data/my-results.json";

/**
 * True in Framework's preview (npm run dev): its pages call `open({hash: …})` of the
 * preview client, which a built page never does.
 */
export function inPreview() {
  return [...document.querySelectorAll("script[type=module]")].some((s) => /\bopen\(\{hash:/.test(s.textContent ?? ""));
}

let latest = null, lastText = null, started = false;
const listeners = new Set();

async function poll() {
  try {
    const r = await fetch(RESULTS_URL, {cache: "no-store"});
    if (!r.ok) return;
    const text = await r.text();
    if (text === lastText) return;
    lastText = text;
    latest = JSON.parse(text);
    for (const f of listeners) f(latest);
  } catch {
    // no results yet, or a half-written file: the next poll reads it
  }
}

/**
 * Calls `f(results)` with the student's results file now (if read already) and each time it
 * changes; in a built site, never. `f` returns false to stop listening (its element is gone).
 */
export function onResults(f) {
  if (typeof document === "undefined" || !inPreview()) return;
  const listener = (data) => { if (f(data) === false) listeners.delete(listener); };
  listeners.add(listener);
  if (latest) listener(latest);
  if (!started) {
    started = true;
    poll();
    setInterval(() => { if (!document.hidden) poll(); }, 3000);
  }
}

/**
 * The lines that sum up one exercise's last result: a headline, then each check that lost
 * points with what failed and its hint. Pure (the tests call it in Node).
 * @param {object} r an entry of my-results.json (an ExerciseResult with `gradedAt`)
 * @returns {{headline: string, failures: {name: string, text: string, hint?: string}[]}}
 */
export function resultSummary(r) {
  const when = r.gradedAt ? ` (graded ${new Date(r.gradedAt).toLocaleString()})` : "";
  const state = {passed: "passed", partial: "partly passed", failed: "failed", "not-attempted": "not attempted yet", timeout: "stopped: timed out", error: "could not be graded"}[r.status] ?? r.status;
  const headline = `Your last result: ${r.earned}/${r.points} points, ${state}${when}.`;
  const failures = (r.checks ?? []).filter((c) => c.status === "failed").map((c) => {
    const rep = c.report ?? {};
    const parts = [rep.call, rep.detail, rep.expected !== undefined ? `expected ${rep.expected}` : null, rep.received !== undefined ? `received ${rep.received}` : null].filter(Boolean);
    return {name: `${c.name} (0/${c.points})`, text: parts.join("; "), ...(rep.hint ? {hint: rep.hint} : {})};
  });
  if (r.message) failures.unshift({name: "the whole exercise", text: r.message});
  return {headline, failures};
}

/**
 * A chapter's progress from the results file: points earned and graded, over the chapter's points.
 * @param {object} data the results file
 * @param {string} chapter slug
 * @param {number} points the chapter's total points
 */
export function chapterProgress(data, chapter, points) {
  const rs = Object.values(data?.results ?? {}).filter((r) => r.chapter === chapter);
  const earned = rs.reduce((s, r) => s + r.earned, 0);
  const passed = rs.filter((r) => r.status === "passed").length;
  return {earned, points, passed, graded: rs.length};
}
