// The glossary page (src/glossary.md.ts) is made from the chapters' own
// glossaries: every written chapter has a `## Glossary (术语)` table with the
// columns English | 中文 … | meaning, and the page lists every one of their
// terms, each row linked to its chapter's glossary section, with row headers.
import { describe, it, expect, beforeAll } from "vitest";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CHAPTERS } from "../lib/chapters.js";
import { parseGlossary, type GlossaryTerm } from "../lib/glossary.js";
import { ROOT } from "../exercises/harness/discover.js";
import config from "../observablehq.config.js";

const written = CHAPTERS.filter((c) => c.status === "written");
const plain = (s: string) => s.replace(/<[^>]+>/g, "").replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
const plainMd = (s: string) => s.replace(/[`]/g, "").replace(/\*\*([^*]+)\*\*/g, "$1").replace(/\*([^*]+)\*/g, "$1").replace(/\[([^\]]+)\]\([^)]+\)/g, "$1").replace(/<[^>]+>/g, "");

describe("the chapters' glossaries", () => {
  for (const c of written) {
    it(`src/${c.slug}.md has a ## Glossary (术语) table | English | 中文 … | meaning | with terms`, () => {
      const terms = parseGlossary(readFileSync(join(ROOT, "src", `${c.slug}.md`), "utf8"));
      expect(terms.length).toBeGreaterThan(0);
      for (const t of terms) expect(t.english && t.meaning, `a row of ${c.slug}'s glossary has an empty cell: ${JSON.stringify(t)}`).toBeTruthy();
    });
  }
});

describe("the glossary page", () => {
  let page = "";
  beforeAll(() => {
    const r = spawnSync("npx", ["tsx", "src/glossary.md.ts"], { cwd: ROOT, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    page = r.stdout;
  }, 60_000);

  it("lists every term of every written chapter once per chapter, linked to that chapter's glossary section, with row headers", () => {
    const rows = [...page.matchAll(/<tr><th scope="row">(.*?)<\/th><td lang="zh">(.*?)<\/td><td>.*?<\/td><td><a href="\.\/([a-z0-9-]+)#glossary">/g)].map((m) => ({ english: plain(m[1]), chinese: plain(m[2]), slug: m[3] }));
    const expected = written.flatMap((c) => parseGlossary(readFileSync(join(ROOT, "src", `${c.slug}.md`), "utf8")).map((t: GlossaryTerm) => ({ english: plainMd(t.english), chinese: plainMd(t.chinese), slug: c.slug })));
    const key = (r: { english: string; chinese: string; slug: string }) => `${r.slug} | ${r.english} | ${r.chinese}`;
    expect(rows.map(key).sort()).toEqual(expected.map(key).sort());
    expect(page).toContain('<th scope="col">English</th><th scope="col">中文 (from the notes)</th>');
  });

  it("opens without a layout shift: its style comes before the table, and the table's columns have fixed widths", () => {
    // A style after the long table let the browser lay the table out twice (CLS 0.08–0.17 at 412 px);
    // automatic column widths re-sized as the parser added rows (0.036 at 1350 px).
    expect(page.indexOf("<style>")).toBeGreaterThan(-1);
    expect(page.indexOf("<style>")).toBeLessThan(page.indexOf('<table class="glossary">'));
    expect(page).toMatch(/\.glossary \{[^}]*table-layout: fixed/);
    const widths = [...page.matchAll(/\.glossary thead th:nth-child\(\d\) \{ width: (\d+)%; \}/g)].map((m) => Number(m[1]));
    expect(widths).toHaveLength(4);
    expect(widths.reduce((a, b) => a + b, 0)).toBe(100);
  });

  it("is one of the site's pages", () => {
    expect(config.pages.map((p: { path: string }) => p.path)).toContain("/glossary");
  });
});
