import {html} from "htl";
import {onResults, resultSummary} from "./results.js";

/**
 * The exercise box of a chapter page, filled from the graders' metadata
 * (src/data/exercises.json), so the page and the scorecard cannot disagree.
 * A "build it" exercise is marked as such; an exercise that names its page
 * section links to it; every box says which lib code holds the reference
 * solution (not to be read, or imported, before solving).
 * @param {Array} exercises the parsed exercises.json
 * @param {string} id e.g. "1.2"
 */
export function exerciseBox(exercises, id) {
  const e = exercises.find((x) => x.id === id);
  if (!e) throw new Error(`no exercise with id ${id} in exercises.json`);
  const solution = e.solution ?? [`lib/${e.chapter}/`];
  return html`<div class="card exercise${e.build ? " exercise-build" : ""}" id="exercise-${e.id.replace(".", "-")}">
    <h3 style="margin-top:0">${e.build ? html`<span class="exercise-badge" style="border:1px solid currentColor;border-radius:4px;padding:0 .35em;margin-right:.3em;font-size:.8em;vertical-align:middle">Build it</span>` : ""}Exercise ${e.id} — ${e.title}</h3>
    <p><code>${e.file}</code> · <code>${e.signature}</code> · ${e.points} points${e.build ? " · your code runs inside the course's own machinery and is graded on the end result; the checks below are its parts" : ""}</p>
    <p>${e.summary}</p>
    ${e.section ? html`<p>What it needs is derived in <a href="#${e.section}">${e.sectionTitle ?? "this section"}</a>.</p>` : ""}
    <details><summary>${e.build ? "Parts" : "Checks"}</summary><ul>${e.checks.map((c) => listItem(`${c.name} (${c.points} ${c.points === 1 ? "point" : "points"})`))}</ul></details>
    <p>Check it: <code>npm test exercises ${e.chapter}</code> · the page section and the contract: <code>npm test exercises -- --explain ${e.id}</code></p>
    <p><small>Solutions policy: the reference is ${solution.map((s, i) => html`${i ? ", " : ""}<code>${s}</code>`)}. Do not read it before you have solved the exercise; code of yours that loads it, by any path, gets 0.${e.uses?.length ? html` You may import ${e.uses.map((s, i) => html`${i ? ", " : ""}<code>${s}</code>`)}.` : ""}</small></p>
    ${yourResult(e.id)}
  </div>`;
}

/** A text list item, made without html`` (whose every call runs the HTML parser: ~1 ms on a slow phone, and a box has up to 12 checks). */
function listItem(text) {
  const li = document.createElement("li");
  li.textContent = text;
  return li;
}

/**
 * Where the student's last result of exercise `id` shows (npm run dev only: results.js);
 * empty in a built site.
 */
function yourResult(id) {
  const slot = html`<div class="exercise-result" aria-live="polite"></div>`;
  let seen = false;
  onResults((data) => {
    if (slot.isConnected) seen = true;
    else if (seen) return false; // the box was replaced: stop
    const r = data?.results?.[id];
    if (!r) { slot.replaceChildren(); return; }
    const {headline, failures} = resultSummary(r);
    slot.replaceChildren(html`<div class="tip" label="Your result (npm test exercises)">
      <p><strong>${headline}</strong></p>
      ${failures.length ? html`<ul>${failures.map((f) => html`<li><strong>✗ ${f.name}</strong>${f.text ? html`: <code>${f.text}</code>` : ""}${f.hint ? html`<br>hint: ${f.hint}` : ""}</li>`)}</ul>` : ""}
    </div>`);
  });
  return slot;
}
