// The scaffolds, run in a temporary copy of the repository (its tracked and
// unignored files, node_modules linked): `npm run new-chapter` then
// `npm run new-exercise` in that chapter, and the checks of npm test that
// concern them pass there at once: the type check, the layout, page-import and
// corrections tests, the new lib tests, and the grader self-check of the new
// exercises. (About a minute on the 2-core machine.)
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ROOT } from "../exercises/harness/discover.js";

const SLUG = "scaffold-demo";

describe("npm run new-chapter and new-exercise, in a temporary copy of the repository", () => {
  const copy = mkdtempSync(join(tmpdir(), "scaffold-"));
  const run = (cmd: string, ...args: string[]) => spawnSync(cmd, args, { cwd: copy, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", CI: "1" } });
  let chapter: ReturnType<typeof run>, exercise: ReturnType<typeof run>;

  beforeAll(() => {
    const files = spawnSync("git", ["ls-files", "-co", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" }).stdout.split("\n").filter((f) => f && f !== "node_modules" && existsSync(join(ROOT, f)));
    for (const f of files) {
      mkdirSync(dirname(join(copy, f)), { recursive: true });
      cpSync(join(ROOT, f), join(copy, f), { verbatimSymlinks: true });
    }
    symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));
    chapter = run("npx", "tsx", "scripts/scaffold.ts", "new-chapter", SLUG, "A scaffolded chapter");
    exercise = run("npx", "tsx", "scripts/scaffold.ts", "new-exercise", SLUG, "clip-values");
  }, 120_000);
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it("writes the chapter as coming, with every section, and walks the instructor to written", () => {
    expect(chapter.status, chapter.stderr).toBe(0);
    const chapters = readFileSync(join(copy, "lib/chapters.ts"), "utf8");
    const number = Number(new RegExp(`number: (\\d+), slug: "${SLUG}"`).exec(chapters)?.[1]);
    expect(chapters).toMatch(new RegExp(`slug: "${SLUG}", title: "A scaffolded chapter", .*status: "coming"`));
    expect(readFileSync(join(copy, "README.md"), "utf8")).toContain(`| ${number} | ${SLUG} | coming |`);
    const page = readFileSync(join(copy, "src", `${SLUG}.md`), "utf8");
    for (const h of ["Why", "Worked example", "Figures", "Exercises", "Corrections to the notes", "References", "Glossary (术语)"]) expect(page).toContain(`\n## ${h}\n`);
    expect(page).toContain("| English | 中文 (from the notes) | meaning |");
    for (const f of [`lib/${SLUG}/index.ts`, `lib/${SLUG}/index.test.ts`, `exercises/${SLUG}/mean-square.ts`, `exercises/${SLUG}/mean-square.test.ts`, `exercises/${SLUG}/mutants/mean-square.ts`, `bench/${SLUG}.bench.ts`]) {
      expect(existsSync(join(copy, f)), f).toBe(true);
    }
    expect(chapter.stdout).toMatch(/To make it "written"/);
    expect(chapter.stdout).toContain(`| ${number} | ${SLUG} | written |`);
    // the second exercise has the next id, a box after the first, and a Classroom test
    expect(exercise.status, exercise.stderr).toBe(0);
    expect(exercise.stdout).toContain(`Exercise ${number}.2 scaffolded`);
    expect(page.indexOf(`exerciseBox(exercises, "${number}.1")`)).toBeGreaterThan(0);
    const after = readFileSync(join(copy, "src", `${SLUG}.md`), "utf8");
    expect(after.indexOf(`exerciseBox(exercises, "${number}.2")`)).toBeGreaterThan(after.indexOf(`exerciseBox(exercises, "${number}.1")`));
    expect(readFileSync(join(copy, ".github/workflows/classroom.yml"), "utf8")).toContain(`command: npm test exercises ${number}.2 -- --require-full`);
  });

  it("passes the type check there (the new files, and what they import)", () => {
    // The rest of the copy is the repository as it is; only lib/chapters.ts and README.md were edited.
    writeFileSync(join(copy, "tsconfig.scaffold.json"), JSON.stringify({ extends: "./tsconfig.json", include: [`lib/${SLUG}/**/*.ts`, `exercises/${SLUG}/**/*.ts`, `bench/${SLUG}.bench.ts`, "lib/chapters.ts", "scripts/scaffold.ts"] }));
    const r = run("npx", "tsc", "--noEmit", "-p", "tsconfig.scaffold.json");
    expect(r.status, r.stdout + r.stderr).toBe(0);
  }, 240_000);

  it("passes the layout, page-import, corrections, lib and grader self-check tests there", () => {
    const tests = run("npx", "vitest", "run", `lib/${SLUG}`, "test/layout.test.ts", "test/pages.test.ts", "test/corrections.test.ts");
    expect(tests.status, tests.stdout.slice(-3000)).toBe(0);
    const graders = run("npx", "vitest", "run", "test/graders.test.ts", "-t", `exercises/${SLUG}/|unique|build it`);
    expect(graders.status, graders.stdout.slice(-3000)).toBe(0);
    // 4 tests for each of the 2 new exercises, and the 2 global ones on ids and build-it exercises
    expect(/Tests\s+(\d+) passed/.exec(graders.stdout)?.[1]).toBe("10");
  }, 240_000);
});
