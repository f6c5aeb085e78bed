// GitHub Classroom's workflow matches the graders: every exercise id is a test
// worth its grader's points, running `npm test exercises <id> -- --require-full`,
// and nothing else is; the file is what `npm run classroom` writes. The command
// it runs exits 0 (the points) only on full marks.
import { describe, it, expect, beforeAll } from "vitest";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadGraders, ROOT } from "./discover.js";
import { isGraded, totalPoints } from "./define.js";
import { classroomWorkflow, NODE_VERSION, stepId, WORKFLOW } from "../../scripts/classroom.js";

describe(WORKFLOW, () => {
  const text = readFileSync(join(ROOT, WORKFLOW), "utf8");
  let graders: Awaited<ReturnType<typeof loadGraders>>[number]["exercise"][] = [];
  beforeAll(async () => { graders = (await loadGraders()).map((g) => g.exercise); }, 60_000);
  const graded = () => graders.filter(isGraded); // a scaffold's placeholder has no test

  it("leaves out a scaffold's placeholder exercise", () => {
    const placeholder = { ...graders[0], id: "99.1", title: "a placeholder", placeholder: true };
    expect(classroomWorkflow([...graders, placeholder])).toBe(classroomWorkflow(graders));
  });

  it("has one test per exercise with the grader's points, running npm test exercises <id>, and nothing else", async () => {
    const steps = [...text.matchAll(/^ {6}- name: .*\n {8}id: (\S+)\n {8}uses: classroom-resources\/autograding-command-grader@v1\n {8}with:\n {10}test-name: "(.*)"\n {10}command: (.*)\n {10}timeout: \d+\n {10}max-score: (\d+)$/gm)]
      .map((m) => ({ step: m[1], name: m[2], command: m[3], points: Number(m[4]) }));
    expect(steps).toEqual(graded().map((e) => ({ step: stepId(e.id), name: `${e.id} ${e.title}`, command: `npm test exercises ${e.id} -- --require-full`, points: totalPoints(e) })));
    expect(text.match(/autograding-command-grader/g)).toHaveLength(graded().length);
    const runners = /^ {10}runners: (.*)$/m.exec(text)?.[1].split(",");
    expect(runners).toEqual(graded().map((e) => stepId(e.id)));
    for (const e of graded()) expect(text).toContain(`${stepId(e.id).toUpperCase()}_RESULTS: "\${{ steps.${stepId(e.id)}.outputs.result }}"`);
  });

  it("is what npm run classroom generates (run it after adding an exercise), with Node pinned as in the Gradescope image", () => {
    expect(text, "stale: run npm run classroom").toBe(classroomWorkflow(graders));
    expect(readFileSync(join(ROOT, "scripts/gradescope/setup.sh"), "utf8")).toMatch(new RegExp(`^NODE_VERSION=${NODE_VERSION.replace(/\./g, "\\.")}$`, "m"));
  });

  it("npm test exercises <id> -- --require-full exits 1 short of full marks (without it, 0: cli.test.ts)", () => {
    // scripts/test.mjs is what `npm test` runs: the flag after `--` reaches the grade command. The
    // exercise is a fixture whose stub is wrong (test/fixtures/harness), not a student's stub, which
    // may be solved by now.
    const run = (...flags: string[]) => spawnSync("node", ["scripts/test.mjs", "exercises", "1.91", "--graders", "test/fixtures/harness/hidden", ...flags], { cwd: ROOT, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    const strict = run("--require-full");
    expect(strict.status, strict.stderr).toBe(1);
    expect(strict.stdout).toMatch(/1\.91 add one \.+ 0\/2/);
    expect(run().status).toBe(0);
  }, 60_000);
});
