// Every written chapter opens with a "What to remember" box (issue 27): 5 to 7 bullets of what a
// practitioner must keep, before the chapter's first section, its links pointing at sections of the
// page. (Its numbers are ${…} expressions on lib: the page's cells compute them, the e2e run renders them.)
import { describe, it, expect } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../exercises/harness/discover.js";
import { CHAPTERS } from "../lib/chapters.js";
import { pageSections } from "../exercises/harness/explain.js";

const OPEN = '<div class="tip" id="what-to-remember" label="What to remember">';

describe('the "What to remember" box of each written chapter', () => {
  for (const c of CHAPTERS.filter((ch) => ch.status === "written")) {
    it(`src/${c.slug}.md has one before its first section, with 5–7 bullets whose links name its sections`, async () => {
      const page = readFileSync(join(ROOT, "src", `${c.slug}.md`), "utf8");
      const at = page.indexOf(OPEN);
      expect(at, `src/${c.slug}.md has no ${OPEN} … </div> (CONTRIBUTING.md, "What to remember")`).toBeGreaterThan(0);
      expect(page.indexOf(OPEN, at + 1), "one box").toBe(-1);
      expect(page.slice(0, at), "the box sits in a keeps-room block (its numbers arrive after the first paint)").toMatch(/<div class="keeps-room" style="--room: \d+px">\n$/);
      const firstSection = /^## /m.exec(page)?.index ?? Infinity;
      expect(at, "the box comes before the chapter's first section").toBeLessThan(firstSection);
      const box = page.slice(at, page.indexOf("\n</div>", at));
      const bullets = box.split("\n").filter((l) => l.startsWith("- "));
      expect(bullets.length, `${bullets.length} bullets`).toBeGreaterThanOrEqual(5);
      expect(bullets.length, `${bullets.length} bullets`).toBeLessThanOrEqual(7);
      const ids = new Set((await pageSections(page)).map((s) => s.id));
      const links = [...box.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]);
      expect(links.filter((l) => !ids.has(l)), "links to sections that do not exist").toEqual([]);
    });
  }
});
