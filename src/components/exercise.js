import {html} from "htl";

/**
 * The exercise box of a chapter page, filled from the graders' metadata
 * (src/data/exercises.json), so the page and the scorecard cannot disagree.
 * @param {Array} exercises the parsed exercises.json
 * @param {string} id e.g. "1.2"
 */
export function exerciseBox(exercises, id) {
  const e = exercises.find((x) => x.id === id);
  if (!e) throw new Error(`no exercise with id ${id} in exercises.json`);
  return html`<div class="card exercise" id="exercise-${e.id.replace(".", "-")}">
    <h3 style="margin-top:0">Exercise ${e.id} — ${e.title}</h3>
    <p><code>${e.file}</code> · <code>${e.signature}</code> · ${e.points} points</p>
    <p>${e.summary}</p>
    <details><summary>Checks</summary><ul>${e.checks.map((c) => html`<li>${c.name} (${c.points} ${c.points === 1 ? "point" : "points"})</li>`)}</ul></details>
    <p>Check it: <code>npm test exercises ${e.chapter}</code></p>
  </div>`;
}
