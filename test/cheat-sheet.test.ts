// The cheat sheet (src/cheat-sheet.md.ts): every formula links to a section of a written chapter
// that exists, every written chapter has at least one formula, the examples were computed (no
// NaN, no "undefined"), and the page is in the site's navigation.
import { describe, it, expect } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT } from "../exercises/harness/discover.js";
import { CHAPTERS } from "../lib/chapters.js";
import { pageSections } from "../exercises/harness/explain.js";
import { ONE_GPU } from "../src/cheat-sheet/oneGpu.js";
import { MANY_GPUS } from "../src/cheat-sheet/parallel.js";
import { LONG_AND_SPARSE } from "../src/cheat-sheet/longAndSparse.js";
import config from "../observablehq.config.js";

const formulas = [...ONE_GPU, ...MANY_GPUS, ...LONG_AND_SPARSE];
const written = CHAPTERS.filter((c) => c.status === "written");

describe("the cheat sheet", () => {
  it("links every formula to a section of a written chapter that exists", async () => {
    const missing: string[] = [];
    for (const f of formulas) {
      const c = written.find((ch) => ch.slug === f.slug);
      if (!c) { missing.push(`${f.name}: no written chapter ${f.slug}`); continue; }
      const ids = (await pageSections(readFileSync(join(ROOT, "src", `${c.slug}.md`), "utf8"))).map((s) => s.id);
      if (!ids.includes(f.anchor)) missing.push(`${f.name}: src/${c.slug}.md has no section #${f.anchor}`);
    }
    expect(missing).toEqual([]);
  });

  it("has a formula for every written chapter, and examples with computed numbers only", () => {
    expect(written.filter((c) => !formulas.some((f) => f.slug === c.slug)).map((c) => c.slug)).toEqual([]);
    for (const f of formulas) expect(f.example ?? "", f.name).not.toMatch(/NaN|undefined|Infinity|\[object/);
    expect(formulas.filter((f) => f.example).length).toBeGreaterThanOrEqual(formulas.length / 2);
  });

  it("is a page of the navigation, written by its loader with one section per chapter", () => {
    expect(config.pages.map((p: { path: string }) => p.path)).toContain("/cheat-sheet");
    const r = spawnSync("npx", ["tsx", "src/cheat-sheet.md.ts"], { cwd: ROOT, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    for (const c of written) expect(r.stdout).toContain(`## ${c.number}. ${c.title}`);
    expect(r.stdout.match(/<a href="\.\/[a-z0-9-]+#[a-z0-9-]+">derived here<\/a>/g)).toHaveLength(formulas.length);
  }, 60_000);
});
