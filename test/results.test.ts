// A student's results in the site (npm run dev): what `npm test exercises`
// keeps (exercises/harness/results.ts) and what the exercise boxes and the home
// page make of it (src/components/results.js). No page may reference the
// results file: a build copies only referenced files, so dist/ never holds it.
import { describe, it, expect } from "vitest";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { saveResults, RESULTS_FILE, type SavedResults } from "../exercises/harness/results.js";
import type { ExerciseResult } from "../exercises/harness/grade.js";
import { ROOT } from "../exercises/harness/discover.js";
// @ts-expect-error: a plain ES module of the site, without types
import { chapterProgress, resultSummary, RESULTS_URL } from "../src/components/results.js";

const result = (id: string, chapter: string, earned: number, status: ExerciseResult["status"], extra: Partial<ExerciseResult> = {}): ExerciseResult => ({
  id, title: `t${id}`, chapter, file: "f.ts", points: 4, earned, status,
  checks: [
    { name: "a", points: 2, earned: Math.min(2, earned), status: earned >= 2 ? "passed" : status === "not-attempted" ? "not-attempted" : "failed" },
    { name: "b", points: 2, earned: Math.max(0, earned - 2), status: earned === 4 ? "passed" : status === "not-attempted" ? "not-attempted" : "failed", report: { call: "f(1)", expected: "2", received: "3", hint: "see the page" } },
  ],
  ...extra,
});

describe("saveResults", () => {
  it("merges each run by exercise id, keeps the others, drops the code's output, and stamps the time", () => {
    const dir = mkdtempSync(join(tmpdir(), "results-"));
    try {
      const file = join(dir, "my-results.json");
      expect(saveResults([result("1.1", "precision", 0, "not-attempted"), result("2.1", "memory", 2, "partial", { output: "debug print" })], file, new Date("2026-01-01T00:00:00Z"))).toBe(true);
      expect(saveResults([result("1.1", "precision", 4, "passed")], file, new Date("2026-01-02T00:00:00Z"))).toBe(true);
      const saved = JSON.parse(readFileSync(file, "utf8")) as SavedResults;
      expect(Object.keys(saved.results).sort()).toEqual(["1.1", "2.1"]);
      expect([saved.results["1.1"].status, saved.results["1.1"].gradedAt]).toEqual(["passed", "2026-01-02T00:00:00.000Z"]);
      expect(saved.results["2.1"]).not.toHaveProperty("output");
      expect(saveResults([], join(dir, "no", "such", "folder.json"))).toBe(false);
      expect(readdirSync(dir)).toEqual(["my-results.json"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("writes to src/data/my-results.json, which git ignores", () => {
    expect(RESULTS_FILE).toBe(join(ROOT, "src", "data", "my-results.json"));
    expect(readFileSync(join(ROOT, ".gitignore"), "utf8").split("\n")).toContain("src/data/my-results.json");
    expect(RESULTS_URL).toBe("/_file/data/my-results.json");
  });
});

describe("what the site shows", () => {
  it("resultSummary: points, state, and each failed check with what failed and its hint", () => {
    const s = resultSummary({ ...result("2.1", "memory", 2, "partial"), gradedAt: "2026-01-01T00:00:00Z" });
    expect(s.headline).toMatch(/^Your last result: 2\/4 points, partly passed \(graded .+\)\.$/);
    expect(s.failures).toEqual([{ name: "b (0/2)", text: "f(1); expected 2; received 3", hint: "see the page" }]);
    expect(resultSummary(result("1.1", "precision", 0, "not-attempted")).failures).toEqual([]);
    expect(resultSummary(result("1.1", "precision", 0, "timeout", { checks: [], message: "stopped after 10 s" })).failures).toEqual([{ name: "the whole exercise", text: "stopped after 10 s" }]);
  });

  it("chapterProgress: the points earned in a chapter, over its points", () => {
    const data = { version: 1, results: { "2.1": result("2.1", "memory", 4, "passed"), "2.2": result("2.2", "memory", 2, "partial"), "1.1": result("1.1", "precision", 4, "passed") } };
    expect(chapterProgress(data, "memory", 60)).toEqual({ earned: 6, points: 60, passed: 1, graded: 2 });
    expect(chapterProgress(data, "amp", 66)).toEqual({ earned: 0, points: 66, passed: 0, graded: 0 });
    expect(chapterProgress(null, "amp", 66).graded).toBe(0);
  });

  it("no page or component references the results file through FileAttachment (a build would copy it into dist/)", () => {
    const walk = (d: string): string[] => readdirSync(d).flatMap((n) => (n.startsWith(".") || n === "lib" ? [] : statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [join(d, n)]));
    const offenders = walk(join(ROOT, "src")).filter((f) => /\.(md|js|ts)$/.test(f) && /FileAttachment\([^)]*my-results/.test(readFileSync(f, "utf8")));
    expect(offenders).toEqual([]);
  });
});
