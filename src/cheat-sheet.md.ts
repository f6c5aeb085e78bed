// The cheat sheet, written at build time (an Observable Framework page loader: its output is the
// page's Markdown): the formulas of every written chapter, each linked to the section that derives
// it, with an example whose numbers lib computes while the site is built (src/cheat-sheet/). No
// script runs when the page opens. test/cheat-sheet.test.ts checks that every link names a section.
import { CHAPTERS } from "../lib/chapters.js";
import { ONE_GPU } from "./cheat-sheet/oneGpu.js";
import { MANY_GPUS } from "./cheat-sheet/parallel.js";
import { LONG_AND_SPARSE } from "./cheat-sheet/longAndSparse.js";
import type { Formula } from "./cheat-sheet/format.js";

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const formulas: Formula[] = [...ONE_GPU, ...MANY_GPUS, ...LONG_AND_SPARSE];

const sections = CHAPTERS.filter((c) => c.status === "written" && formulas.some((f) => f.slug === c.slug)).map((c) => {
  const items = formulas.filter((f) => f.slug === c.slug).map((f) => `<li><strong>${f.name}</strong> (<a href="./${c.slug}#${f.anchor}">derived here</a>): ${f.formula}.${f.example ? `<br><span class="cheat-example">Example: ${f.example}.</span>` : ""}</li>`);
  return `## ${c.number}. ${esc(c.title)}\n\n<ul class="cheat">\n${items.join("\n")}\n</ul>`;
});

process.stdout.write(`---
title: Cheat sheet
---

<style>
.cheat { padding-left: 1.2rem; max-width: 640px; }
.cheat li { margin-bottom: 0.6rem; }
.cheat-example { color: var(--theme-foreground-muted); }
</style>

# Cheat sheet

The formulas of every chapter on one page: Ψ parameters, s sequence length, b micro-batch, h hidden
size, a attention heads, L layers, P or d data-parallel ranks, t or T tensor-parallel ranks, p pipeline
stages, m micro-batches, K accumulation steps or optimizer bytes per parameter. Each links to the
section that derives it; each example was computed by the course's tested code (\`lib/\`) when this
site was built. Every chapter also opens with what to remember.

${sections.join("\n\n")}
`);
