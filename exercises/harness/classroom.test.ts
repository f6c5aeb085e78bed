// GitHub Classroom's workflow matches the graders: every exercise id is a test
// worth its grader's points, running `npm test exercises <id> -- --require-full`,
// and nothing else is; the file is what `npm run classroom` writes. The command
// it runs exits 0 (the points) only on full marks.
import { describe, it, expect, beforeAll } from "vitest";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadGraders, ROOT } from "./discover.js";
import { totalPoints } from "./define.js";
import { classroomWorkflow, NODE_VERSION, stepId, WORKFLOW } from "../../scripts/classroom.js";

describe(WORKFLOW, () => {
  const text = readFileSync(join(ROOT, WORKFLOW), "utf8");
  let graders: Awaited<ReturnType<typeof loadGraders>>[number]["exercise"][] = [];
  beforeAll(async () => { graders = (await loadGraders()).map((g) => g.exercise); }, 60_000);

  it("has one test per exercise with the grader's points, running npm test exercises <id>, and nothing else", async () => {
    const steps = [...text.matchAll(/^ {6}- name: .*\n {8}id: (\S+)\n {8}uses: classroom-resources\/autograding-command-grader@v1\n {8}with:\n {10}test-name: "(.*)"\n {10}command: (.*)\n {10}timeout: \d+\n {10}max-score: (\d+)$/gm)]
      .map((m) => ({ step: m[1], name: m[2], command: m[3], points: Number(m[4]) }));
    expect(steps).toEqual(graders.map((e) => ({ step: stepId(e.id), name: `${e.id} ${e.title}`, command: `npm test exercises ${e.id} -- --require-full`, points: totalPoints(e) })));
    expect(text.match(/autograding-command-grader/g)).toHaveLength(graders.length);
    const runners = /^ {10}runners: (.*)$/m.exec(text)?.[1].split(",");
    expect(runners).toEqual(graders.map((e) => stepId(e.id)));
    for (const e of graders) expect(text).toContain(`${stepId(e.id).toUpperCase()}_RESULTS: "\${{ steps.${stepId(e.id)}.outputs.result }}"`);
  });

  it("is what npm run classroom generates (run it after adding an exercise), with Node pinned as in the Gradescope image", () => {
    expect(text, "stale: run npm run classroom").toBe(classroomWorkflow(graders));
    expect(readFileSync(join(ROOT, "scripts/gradescope/setup.sh"), "utf8")).toMatch(new RegExp(`^NODE_VERSION=${NODE_VERSION.replace(/\./g, "\\.")}$`, "m"));
  });

  it("npm test exercises <id> -- --require-full exits 1 on an untouched stub (0 points), (without it, 0: cli.test.ts)", () => {
    // scripts/test.mjs is what `npm test` runs: the flag after `--` reaches the grade command.
    const strict = spawnSync("node", ["scripts/test.mjs", "exercises", "2.1", "--require-full"], { cwd: ROOT, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    expect(strict.status, strict.stderr).toBe(1);
    expect(strict.stdout).toMatch(/2\.1 count parameters from a config\.json \.+ not attempted 0\/\d+/);
  }, 60_000);
});
