// The Gradescope autograder, simulated here: `npm run package:gradescope`'s zip
// is unpacked into a temporary folder laid out like Gradescope's (source/,
// submission/, results/; AUTOGRADER_ROOT stands for /autograder), its
// run_autograder grades a submission with one correct and one wrong exercise
// (public graders, and a hidden one packed from a folder outside the repository),
// and results.json must give each its score. setup.sh (Node and npm ci, as root
// on Gradescope's Ubuntu image) is not run: the repository's node_modules is linked.
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import JSZip from "jszip";
import { packageGradescope } from "../../scripts/package-gradescope.js";
import { loadGraders, ROOT } from "./discover.js";
import { totalPoints } from "./define.js";
import { correctCountParameters, wrongRoundBf16 } from "./submission.fixtures.js";

interface GradescopeTest { name: string; score: number; max_score: number; status: string; visibility: string }

describe("the Gradescope autograder zip, in a local simulation of Gradescope", () => {
  const tmp = mkdtempSync(join(tmpdir(), "gradescope-"));
  let names: string[] = [];
  let zip: JSZip;
  let run: ReturnType<typeof spawnSync>;
  let results: { score: number; max_score: number; tests: GradescopeTest[] };

  beforeAll(async () => {
    // A hidden grader, as a course keeps them outside the repository (CONTRIBUTING.md): 2.1's public
    // grader with its imports through the package name, as exercise 2.90.
    const hidden = join(tmp, "hidden-graders", "memory");
    mkdirSync(hidden, { recursive: true });
    writeFileSync(join(hidden, "count-parameters-hidden.test.ts"), readFileSync(join(ROOT, "exercises/memory/count-parameters.test.ts"), "utf8")
      .replace(/"\.\.\/harness\/index\.js"/g, '"llm-training-course/harness"')
      .replace(/"\.\.\/\.\.\/lib\//g, '"llm-training-course/lib/')
      .replace(/"\.\/([a-z0-9-]+\.js)"/g, '"llm-training-course/exercises/memory/$1"')
      .replace(/id: "2\.1"/, 'id: "2.90"'));
    const built = await packageGradescope({ filter: ["precision", "memory"], graders: join(tmp, "hidden-graders") });
    names = built.names;
    zip = await JSZip.loadAsync(built.zip);
    for (const [name, entry] of Object.entries(zip.files)) {
      if (entry.dir) continue;
      const to = join(tmp, "source", name);
      mkdirSync(dirname(to), { recursive: true });
      writeFileSync(to, await entry.async("nodebuffer"));
      if (entry.unixPermissions) chmodSync(to, Number(entry.unixPermissions) & 0o777);
    }
    symlinkSync(join(ROOT, "node_modules"), join(tmp, "source", "node_modules")); // what setup.sh's npm ci installs
    // The submission: 2.1 right (in a copy of exercises/), 1.2 wrong (a loose file, as uploaded),
    // and a grader of the student's own, which must not replace the course's.
    mkdirSync(join(tmp, "submission", "exercises", "memory"), { recursive: true });
    writeFileSync(join(tmp, "submission", "exercises", "memory", "count-parameters.ts"), correctCountParameters());
    writeFileSync(join(tmp, "submission", "exercises", "memory", "does-it-fit.test.ts"), "export default 42;\n");
    writeFileSync(join(tmp, "submission", "round-bf16.ts"), wrongRoundBf16());
    // Gradescope copies source/run_autograder to /autograder/run_autograder and runs it from there.
    copyFileSync(join(tmp, "source", "run_autograder"), join(tmp, "run_autograder"));
    chmodSync(join(tmp, "run_autograder"), 0o755);
    run = spawnSync(join(tmp, "run_autograder"), [], { cwd: tmp, encoding: "utf8", env: { ...process.env, AUTOGRADER_ROOT: tmp, NO_COLOR: "1" } });
    results = JSON.parse(readFileSync(join(tmp, "results", "results.json"), "utf8"));
  }, 120_000);
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("has setup.sh and run_autograder at its root, executable, with the course's sources", () => {
    expect(names).toEqual(expect.arrayContaining(["setup.sh", "run_autograder", "package.json", "package-lock.json", "exercises/grade.ts", "exercises/memory/count-parameters.test.ts", "lib/chapters.ts", "scripts/gradescope/copy-submission.ts", "hidden/memory/count-parameters-hidden.test.ts"]));
    expect(names.some((n) => n.startsWith("node_modules/"))).toBe(false);
    expect(Number(zip.files["setup.sh"].unixPermissions) & 0o777).toBe(0o755);
    expect(Number(zip.files["run_autograder"].unixPermissions) & 0o777).toBe(0o755);
  });

  it("setup.sh is valid bash that installs a pinned, checksum-checked Node and the locked dependencies", () => {
    const setup = readFileSync(join(tmp, "source", "setup.sh"), "utf8");
    expect(spawnSync("bash", ["-n", join(tmp, "source", "setup.sh")]).status).toBe(0);
    expect(setup).toMatch(/^NODE_VERSION=\d+\.\d+\.\d+$/m);
    expect(setup).toMatch(/sha256sum -c/);
    expect(setup).toMatch(/^npm ci\b/m);
  });

  it("run_autograder grades the submission: the right exercise earns all its points, the wrong one loses some", async () => {
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/copied 2 files of the submission/);
    const graders = (await loadGraders([], ["precision", "memory"])).map((g) => g.exercise);
    const byId = (id: string) => results.tests.filter((t) => t.name.startsWith(`${id} `));
    const sum = (ts: GradescopeTest[], k: "score" | "max_score") => ts.reduce((s, t) => s + t[k], 0);
    const max = (id: string) => totalPoints(graders.find((e) => e.id === id)!);
    expect(results.max_score).toBe(graders.reduce((s, e) => s + totalPoints(e), 0) + max("2.1"));
    expect([sum(byId("2.1"), "score"), sum(byId("2.1"), "max_score")]).toEqual([max("2.1"), max("2.1")]);
    expect(byId("2.1").every((t) => t.status === "passed" && t.visibility === "visible")).toBe(true);
    expect(sum(byId("1.2"), "score")).toBeLessThan(max("1.2"));
    expect(byId("1.2").some((t) => t.status === "failed")).toBe(true);
    // the hidden grader grades the same file: full marks, shown after publication
    const max21 = max("2.1");
    expect([sum(byId("2.90"), "score"), sum(byId("2.90"), "max_score")]).toEqual([max21, max21]);
    expect(new Set(byId("2.90").map((t) => t.visibility))).toEqual(new Set(["after_published"]));
    const others = results.tests.filter((t) => !/^(1\.2|2\.1|2\.90) /.test(t.name));
    expect(others.length).toBeGreaterThan(0);
    expect(sum(others, "score"), "every other exercise is an untouched stub").toBe(0);
    expect(results.score).toBe(2 * max("2.1") + sum(byId("1.2"), "score"));
    expect(new Set(results.tests.map((t) => t.name.split(" ")[0].split(".")[0]))).toEqual(new Set(["1", "2"]));
  });
});
