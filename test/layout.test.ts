// The repository's layout contract (README.md, "Layout"): one slug names a
// chapter's page, lib folder and exercises; every exercise has a box on its
// page; lib/ holds no Markdown (src/lib links to it, and Observable Framework
// would publish any .md there as a page).
import { describe, it, expect } from "vitest";
import { existsSync, readFileSync, readdirSync, readlinkSync, statSync } from "node:fs";
import { join } from "node:path";
import { CHAPTERS } from "../lib/chapters.js";
import { findGraderFiles, loadGrader, ROOT } from "../exercises/harness/discover.js";

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

describe("layout", () => {
  it("src/lib is a link to ../lib, and lib/ holds no .md file", () => {
    expect(readlinkSync(join(ROOT, "src/lib"))).toBe("../lib");
    expect(walk(join(ROOT, "lib")).filter((f) => f.endsWith(".md")).map((f) => f.slice(ROOT.length + 1))).toEqual([]);
  });

  for (const c of CHAPTERS.filter((ch) => ch.status === "written")) {
    it(`written chapter ${c.slug} has its page, lib and at least 3 exercises, each boxed on the page`, async () => {
      expect(existsSync(join(ROOT, "src", `${c.slug}.md`)), `src/${c.slug}.md`).toBe(true);
      expect(existsSync(join(ROOT, "lib", c.slug, "index.ts")), `lib/${c.slug}/index.ts`).toBe(true);
      const graders = findGraderFiles().filter((f) => f.startsWith(join(ROOT, "exercises", c.slug) + "/"));
      expect(graders.length).toBeGreaterThanOrEqual(3);
      const page = readFileSync(join(ROOT, "src", `${c.slug}.md`), "utf8");
      for (const f of graders) {
        const { exercise } = await loadGrader(f);
        expect(page, `src/${c.slug}.md shows exerciseBox(exercises, "${exercise.id}")`).toContain(`exerciseBox(exercises, "${exercise.id}")`);
      }
      // A reader meets exercise k before exercise k + 1: ids are numbered in page order.
      const order = [...page.matchAll(/exerciseBox\(exercises, "(\d+)\.(\d+)"\)/g)].map((m) => Number(m[2]));
      expect(order, `exercise boxes of src/${c.slug}.md in page order`).toEqual([...order].sort((a, b) => a - b));
    });
  }
});

describe("README", () => {
  it("lists every chapter with its current status", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    for (const c of CHAPTERS) expect(readme, `README row for ${c.slug}`).toMatch(new RegExp(`\\| ${c.number} \\| ${c.slug} \\| ${c.status} \\|`));
  });
});
