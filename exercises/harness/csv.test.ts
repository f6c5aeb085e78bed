// A class graded offline: `npm run grade -- 2.1 --format csv --submissions DIR`
// on two tiny submissions (one a copy of exercises/, one a repository holding
// exercises/, one that does not compile, one empty): one row each, the points of
// each exercise, the total, and notes that tell "does not compile" from "not attempted".
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gradeCommand } from "./cli.js";
import { csvField, toCsv } from "./csv.js";
import { loadGraders } from "./discover.js";
import { totalPoints } from "./define.js";
import { correctCountParameters, wrongCountParameters } from "./submission.fixtures.js";
import type { ExerciseResult } from "./grade.js";

describe("npm run grade -- --format csv --submissions DIR", () => {
  const dir = mkdtempSync(join(tmpdir(), "submissions-"));
  let code: number | null, out = "", err = "";
  beforeAll(async () => {
    mkdirSync(join(dir, "ada", "memory"), { recursive: true }); // a copy of exercises/
    writeFileSync(join(dir, "ada", "memory", "count-parameters.ts"), correctCountParameters());
    mkdirSync(join(dir, "bob", "exercises", "memory"), { recursive: true }); // a clone of the repository
    writeFileSync(join(dir, "bob", "exercises", "memory", "count-parameters.ts"), wrongCountParameters());
    writeFileSync(join(dir, "bob", "README.md"), "bob's notes\n");
    mkdirSync(join(dir, "cy", "memory"), { recursive: true }); // a file that does not compile
    writeFileSync(join(dir, "cy", "memory", "count-parameters.ts"), "export function countParameters(config: { n: number }): number {\n  return config.n +;\n}\n");
    mkdirSync(join(dir, "dee"), { recursive: true }); // nothing of theirs: not attempted
    const o: string[] = [], e: string[] = [];
    code = await gradeCommand(["2.1", "--format", "csv", "--submissions", dir, "--out", join(dir, "grades.csv")], { log: (t) => o.push(t), error: (t) => e.push(t) });
    out = o.join("\n"); err = e.join("\n");
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("writes one row per submission folder with the points per exercise and the total", async () => {
    expect(code, err).toBe(0);
    expect(out).toMatch(/graded ada: \d+\/\d+ \(1 file of theirs\)/);
    const [ex] = (await loadGraders([], ["memory"])).map((g) => g.exercise).filter((e) => e.id === "2.1");
    const max = totalPoints(ex);
    const lines = readFileSync(join(dir, "grades.csv"), "utf8").trimEnd().split("\r\n");
    const rows = lines.map((l) => l.split(","));
    expect(rows[0]).toEqual(["submission", "2.1", "total", "notes"]);
    expect(rows[1]).toEqual(["max points", String(max), String(max), ""]);
    expect(rows.slice(2).map((r) => r[0])).toEqual(["ada", "bob", "cy", "dee"]);
    expect(rows[2].slice(1)).toEqual([String(max), String(max), ""]);
    const bob = rows[3].slice(1, 3).map(Number);
    expect(bob[0]).toBeLessThan(max);
    expect(bob[1]).toBe(bob[0]);
    expect(rows[3][3]).toBe("");
    // Both 0, told apart by the notes: code that does not compile, and nothing attempted.
    expect(rows[4].slice(1, 3)).toEqual(["0", "0"]);
    expect(lines[4]).toMatch(/^cy,0,0,"?2\.1 error: could not load exercises\/memory\/count-parameters\.ts: .*Unexpected/);
    expect(rows[5]).toEqual(["dee", "0", "0", "2.1 not attempted"]);
  });

  it("takes only --format csv or json, and a folder that exists", async () => {
    const run = (...a: string[]) => gradeCommand(a, { log: () => {}, error: () => {} });
    expect(await run("2.1", "--submissions", dir, "--format", "junit")).toBe(2);
    expect(await run("2.1", "--submissions", join(dir, "nobody"), "--format", "csv")).toBe(2);
  });
});

describe("toCsv", () => {
  it("quotes fields with commas or quotes, counts a missing result as 0, adds the total, and notes why an exercise has no graded checks", () => {
    expect([csvField("a,b"), csvField('say "hi"'), csvField(3)]).toEqual(['"a,b"', '"say ""hi"""', "3"]);
    const ex = (id: string, points: number[]) => ({ id, checks: points.map((p, i) => ({ name: `c${i}`, points: p, run: () => {} })) }) as never;
    const r = (id: string, earned: number, status: ExerciseResult["status"] = "partial", message?: string) => ({ id, earned, status, message }) as ExerciseResult;
    const csv = toCsv([{ submission: "lee, a.", files: [], results: [r("1.1", 2)] }], [ex("1.1", [1, 2]), ex("1.2", [4])]);
    expect(csv).toBe('submission,1.1,1.2,total,notes\r\nmax points,3,4,7,\r\n"lee, a.",2,0,2,1.2 not attempted\r\n');
    const failing = toCsv([{ submission: "kim", files: [], results: [r("1.1", 0, "timeout", "stopped after 10 s"), r("1.2", 0, "failed", "refused to load lib/x.ts")] }], [ex("1.1", [1, 2]), ex("1.2", [4])]);
    expect(failing.split("\r\n")[2]).toBe("kim,0,0,0,1.1 timeout: stopped after 10 s | 1.2 failed: refused to load lib/x.ts");
  });
});
