// The glossary page, written at build time (an Observable Framework page
// loader: its output is the page's Markdown): every term of every written
// chapter's glossary (术语), read from the chapter pages' own tables (the single
// source: lib/glossary.ts parses them), in one table sorted by the English
// term, each row linked to its chapter's glossary section.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CHAPTERS } from "../lib/chapters.js";
import { parseGlossary } from "../lib/glossary.js";
import { pageSections } from "../exercises/harness/explain.js";
import { ROOT } from "../exercises/harness/discover.js";

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
/** A cell's inline markdown as HTML: `code`, **strong**, *em*, [links](…), and the few tags the pages use (sup, sub, em, strong, br). */
function inline(s: string): string {
  return esc(s)
    .replace(/&lt;(\/?)(sup|sub|em|strong|br)&gt;/g, "<$1$2>")
    .replace(/`([^`]+)`/g, "<code>$1</code>")
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
    .replace(/(^|[^*\w])\*([^*\s][^*]*)\*/g, "$1<em>$2</em>")
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, '<a href="$2">$1</a>');
}
/** The English term as plain text, for sorting. */
const sortKey = (s: string) => s.replace(/[`*_[\]]/g, "").replace(/<[^>]+>/g, "").toLowerCase();

const rows: { key: string; html: string }[] = [];
const chapters: string[] = [];
for (const c of CHAPTERS.filter((ch) => ch.status === "written")) {
  const md = readFileSync(join(ROOT, "src", `${c.slug}.md`), "utf8");
  const anchor = (await pageSections(md)).find((s) => s.title === "Glossary (术语)")?.id ?? "glossary";
  const link = `<a href="./${c.slug}#${anchor}">${c.number}. ${esc(c.title)}</a>`;
  const terms = parseGlossary(md);
  chapters.push(`${c.title} ${terms.length}`);
  for (const t of terms) {
    rows.push({ key: sortKey(t.english), html: `<tr><th scope="row">${inline(t.english)}</th><td lang="zh">${inline(t.chinese)}</td><td>${inline(t.meaning)}</td><td>${link}</td></tr>` });
  }
}
rows.sort((a, b) => a.key.localeCompare(b.key, "en"));

// The page's style comes before the table: after it, the browser first laid the long table out
// without it, then again (a layout shift of 0.08–0.17 at 412 px). The columns have fixed widths:
// with automatic ones, each chunk of rows the parser added could widen a column and re-wrap the
// rows already on screen (0.036 at 1350 px).
process.stdout.write(`---
toc: false
---

<style>
.glossary-scroll { max-width: 100%; overflow-x: auto; }
#observablehq-main .glossary { max-width: none; table-layout: fixed; width: max(100%, 40rem); }
.glossary thead th:nth-child(1) { width: 22%; }
.glossary thead th:nth-child(2) { width: 16%; }
.glossary thead th:nth-child(3) { width: 42%; }
.glossary thead th:nth-child(4) { width: 20%; }
.glossary th[scope="row"] { text-align: left; vertical-align: top; }
.glossary th, .glossary td { overflow-wrap: break-word; }
.glossary td { vertical-align: top; }
</style>

# Glossary (术语)

Every term of every chapter's glossary, ${rows.length} in all, with the Chinese
term of the study notes (a † marks the usual rendering of a term that the notes
do not use; — means the notes have none) and what it means in that chapter. Each
row links to its chapter's glossary, from which this table is made
(${chapters.join(", ")}).

<div class="glossary-scroll">
<table class="glossary">
<thead><tr><th scope="col">English</th><th scope="col">中文 (from the notes)</th><th scope="col">meaning</th><th scope="col">chapter</th></tr></thead>
<tbody>
${rows.map((r) => r.html).join("\n")}
</tbody>
</table>
</div>

`);
