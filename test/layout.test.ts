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

  // Failures name what is missing (never print a whole page).
  for (const c of CHAPTERS.filter((ch) => ch.status === "written")) {
    it(`written chapter ${c.slug} has its page, lib and at least 3 exercises, each boxed on the page and none a placeholder`, async () => {
      const problems: string[] = [];
      const pageFile = join(ROOT, "src", `${c.slug}.md`);
      if (!existsSync(pageFile)) problems.push(`src/${c.slug}.md is missing`);
      if (!existsSync(join(ROOT, "lib", c.slug, "index.ts"))) problems.push(`lib/${c.slug}/index.ts is missing`);
      const graders = findGraderFiles().filter((f) => f.startsWith(join(ROOT, "exercises", c.slug) + "/"));
      if (graders.length < 3) problems.push(`exercises/${c.slug}/ has ${graders.length} grader${graders.length === 1 ? "" : "s"}; a written chapter needs at least 3`);
      const page = existsSync(pageFile) ? readFileSync(pageFile, "utf8") : "";
      if (/^---\n[\s\S]*?^draft:\s*true\s*$[\s\S]*?^---$/m.test(page)) problems.push(`src/${c.slug}.md is a draft (front matter draft: true, from npm run new-chapter): a written chapter's page is built and listed; remove the line`);
      for (const f of graders) {
        const { exercise } = await loadGrader(f);
        if (page && !page.includes(`exerciseBox(exercises, "${exercise.id}")`)) problems.push(`src/${c.slug}.md has no box for exercise ${exercise.id}: add \${exerciseBox(exercises, "${exercise.id}")}`);
        if (exercise.placeholder) problems.push(`exercise ${exercise.id} is still a scaffold's placeholder (not graded): write its grader, then delete "placeholder: true" from ${f.slice(ROOT.length + 1)}`);
      }
      // A reader meets exercise k before exercise k + 1: ids are numbered in page order.
      const order = [...page.matchAll(/exerciseBox\(exercises, "(\d+)\.(\d+)"\)/g)].map((m) => Number(m[2]));
      const sorted = [...order].sort((a, b) => a - b);
      if (order.join() !== sorted.join()) problems.push(`src/${c.slug}.md shows exercise boxes in the order ${order.map((k) => `${c.number}.${k}`).join(", ")}; number them in page order`);
      expect(problems).toEqual([]);
    });
  }
});

describe("README", () => {
  it("lists every chapter with its current status", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const missing = CHAPTERS.filter((c) => !new RegExp(`\\| ${c.number} \\| ${c.slug} \\| ${c.status} \\|`).test(readme)).map((c) => `README.md has no row "| ${c.number} | ${c.slug} | ${c.status} |"`);
    expect(missing).toEqual([]);
  });

  // README is a newcomer's page (issue 27): the two commands, one line each (.ci/run runs the test
  // command on a clean clone), the student's command, and nothing it shows or links may be missing.
  it("shows the two commands and the student's, and every file it shows or links exists", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const commands = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1].split("\n").map((l) => l.replace(/\s+#.*$/, "").trim()));
    expect(commands).toEqual(expect.arrayContaining(["npm install && npm run dev", "npm install && npm test", "npm test exercises"]));
    expect(readFileSync(join(ROOT, ".ci/run"), "utf8"), ".ci/run runs the README's test command").toMatch(/^npm test 2>&1/m);
    const targets = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]).filter((t) => !/^[a-z]+:/.test(t));
    expect(targets.length).toBeGreaterThanOrEqual(3);
    expect(targets.filter((t) => !existsSync(join(ROOT, t)))).toEqual([]);
    expect(targets.some((t) => /\.png$/.test(t)), "one screenshot").toBe(true);
  });
});

describe("file names in lib/", () => {
  const files = walk(join(ROOT, "lib")).filter((f) => f.endsWith(".ts") && !f.includes(`${join("lib", "memory", "configs")}`));
  it("are camelCase or PascalCase (the house style: a file is named after its main export), never kebab-case", () => {
    const bad = files.map((f) => f.slice(ROOT.length + 1)).filter((f) => !/^[A-Za-z][A-Za-z0-9]*(\.test)?\.ts$/.test(f.split("/").pop()!));
    expect(bad, "rename with git mv to the main export's name, e.g. ring-all-reduce.ts → ringAllReduce.ts").toEqual([]);
  });
  it("a file whose one exported function or class is X is named X.ts", () => {
    const bad: string[] = [];
    for (const f of files.filter((x) => !x.endsWith(".test.ts") && !x.endsWith("index.ts"))) {
      const src = readFileSync(f, "utf8");
      const runtime = [...src.matchAll(/^export (?:async )?(?:function\*?|class|const|let) ([A-Za-z0-9_$]+)/gm)].map((m) => m[1]);
      const callables = [...src.matchAll(/^export (?:async )?(?:function\*?|class) ([A-Za-z0-9_$]+)/gm)].map((m) => m[1]);
      const base = f.split("/").pop()!.replace(/\.ts$/, "");
      if (runtime.length === 1 && callables.length === 1 && callables[0] !== base) bad.push(`${f.slice(ROOT.length + 1)} exports only ${callables[0]}`);
    }
    expect(bad).toEqual([]);
  });
});
