// The home page, written at build time (an Observable Framework page loader:
// its output is the page's Markdown). The chapter map is plain HTML in the
// page, so nothing moves when the page opens; its exercise counts come from
// the graders themselves, as the scorecard's do.
import { CHAPTERS } from "../lib/chapters.js";
import { CORRECTIONS } from "../lib/corrections.js";
import { loadGraders } from "../exercises/harness/discover.js";
import { isGraded, totalPoints } from "../exercises/harness/index.js";

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const counts = new Map<string, { n: number; points: number }>();
for (const { exercise } of (await loadGraders()).filter((g) => isGraded(g.exercise))) {
  const c = counts.get(exercise.chapter) ?? { n: 0, points: 0 };
  c.n += 1;
  c.points += totalPoints(exercise);
  counts.set(exercise.chapter, c);
}

const items = CHAPTERS.map((c) => {
  const ex = counts.get(c.slug);
  const title = c.status === "written" ? `<a href="./${c.slug}"><strong>${esc(c.title)}</strong></a>` : `<strong>${esc(c.title)}</strong> <span class="muted">(coming)</span>`;
  const exercises = ex ? `<span class="muted"> · ${ex.n} exercises, ${ex.points} points</span>` : "";
  // Filled with the student's progress in npm run dev only (src/components/results.js); empty in a build.
  const progress = ex ? `<span class="my-progress" data-chapter="${c.slug}" data-points="${ex.points}"></span>` : "";
  return `  <li value="${c.number}">${title} — ${esc(c.summary)}${exercises}${progress}</li>`;
}).join("\n");
const written = CHAPTERS.filter((c) => c.status === "written").length;

process.stdout.write(`---
toc: false
---

# How large language models are trained

A course on the techniques that make training a large
language model fit in memory and finish in time: number formats, the memory
budget, gradient accumulation and checkpointing, mixed precision, data,
tensor and pipeline parallelism, ZeRO and FSDP, offload, FlashAttention and
the Sophia optimizer. It follows a set of study notes (in Chinese; each
chapter's glossary keeps their terms) and corrects them where they are wrong,
with the primary source. [The notes page](./notes) says what each note
covers and lists every correction${CORRECTIONS.length ? ` (${CORRECTIONS.length} so far)` : ""}.

Every figure, calculator and number on these pages is computed by the same
tested functions in \`lib/\` that grade the exercises: in your browser when it
depends on what you choose, and when the site is built otherwise. The
exceptions are quoted figures (from papers, the study notes, or a dated
measurement), and each of those carries its source.

## Chapters

<ol class="chapter-map">
${items}
</ol>

${written} of ${CHAPTERS.length} chapters are written; the others are marked *coming*.
Each chapter opens with what to remember, and [the cheat sheet](./cheat-sheet) gathers the
formulas of every chapter on one page.

## Doing the exercises

Each chapter ends in exercises: a function to write in \`exercises/<chapter>/\`,
graded against the reference in \`lib/\`.

1. \`npm install\`, then \`npm test exercises\` — every exercise shows as *not attempted*.
2. Open the file named in an exercise box, read its contract, replace the
   \`notImplemented(...)\` line with your code.
3. \`npm test exercises <chapter>\` (for example \`npm test exercises precision\`)
   grades that chapter and prints what failed: the call, the expected and
   received values, a hint. \`npm test exercises 1.2\` grades one exercise;
   \`npm test exercises -- --watch\` grades again on every save.

Code that throws, returns NaN or the wrong type, changes its input or never
returns loses that exercise's points and nothing else: the scorecard always
prints.

When you run the site on your own machine (\`npm run dev\`), each exercise box
shows your last result and this page your progress per chapter, read from
what \`npm test exercises\` last wrote (\`src/data/my-results.json\`, which
git ignores and the published site never contains).

\`\`\`js
import {onResults, chapterProgress} from "./components/results.js";
onResults((data) => {
  for (const el of document.querySelectorAll(".my-progress")) {
    const p = chapterProgress(data, el.dataset.chapter, Number(el.dataset.points));
    if (p.graded === 0) { el.replaceChildren(); continue; }
    const bar = document.createElement("progress");
    bar.max = p.points;
    bar.value = p.earned;
    bar.setAttribute("aria-label", \`your points in chapter \${el.dataset.chapter}\`);
    el.replaceChildren(document.createElement("br"), bar, \` your progress: \${p.earned}/\${p.points} points, \${p.passed} exercise\${p.passed === 1 ? "" : "s"} passed\`);
  }
});
\`\`\`

<style>
.chapter-map li { margin-bottom: 0.4rem; }
.my-progress progress { vertical-align: middle; width: min(12rem, 50%); }
</style>
`);
