// The grading harness survives whatever a student writes: throwing code,
// NaN, wrong types, mutated inputs, infinite loops, process.exit. Uses a
// fixture exercise (test/fixtures/harness) run in real worker threads.
import { describe, it, expect, beforeAll } from "vitest";
import { resolve } from "node:path";
import { loadGrader, ROOT, type LoadedGrader } from "./discover.js";
import { runInWorker } from "./runner.js";
import { formatScorecard, toGradescope, toJUnit } from "./scorecard.js";
import { firstDifference, formatValue } from "./index.js";

let g: LoadedGrader;
beforeAll(async () => { g = await loadGrader(resolve(ROOT, "test/fixtures/harness/double.test.ts")); });
const mutant = (name: string) => runInWorker(g, { kind: "mutant", name }, 4000);

describe("runInWorker", () => {
  it("reports an untouched stub as not attempted with 0 points", async () => {
    const r = await runInWorker(g, { kind: "stub" }, 4000);
    expect(r.status).toBe("not-attempted");
    expect(r.earned).toBe(0);
  });
  it("gives the reference full marks, and an async right answer too", async () => {
    expect((await runInWorker(g, { kind: "reference" }, 4000)).earned).toBe(3);
    expect((await mutant("is async and right")).earned).toBe(3);
  });
  it("shows the call, expected, received and hint of a wrong value", async () => {
    const r = await mutant("adds instead of doubling (off by a constant)");
    expect(r.status).toBe("failed");
    const report = r.checks[0].report!;
    expect(report.call).toBe("double([1, 2, 3])");
    expect(report.expected).toBe("2");
    expect(report.received).toBe("3");
    expect(report.hint).toBe("multiply by two");
  });
  it("turns a thrown TypeError, NaN, a wrong type and a mutated input into failed checks", async () => {
    expect((await mutant("throws a TypeError")).checks[0].report?.detail).toMatch(/^threw TypeError/);
    expect((await mutant("returns NaN")).checks[0].report?.received).toBe("NaN");
    expect((await mutant("returns a string")).checks[0].report?.detail).toMatch(/returned string, expected array/);
    expect((await mutant("mutates its input")).checks[0].report?.detail).toMatch(/mutated its argument #1/);
  });
  it("stops code that never returns at the deadline and still reports", async () => {
    const r = await mutant("never returns");
    expect(r.status).toBe("timeout");
    expect(r.earned).toBe(0);
  });
  it("survives process.exit in student code", async () => {
    const r = await mutant("calls process.exit");
    expect(r.status).toBe("error");
    expect(r.message).toMatch(/exited with code 3/);
  });
});

describe("scorecard", () => {
  it("formatScorecard(results) prints per-exercise lines and the total", async () => {
    const rs = [await runInWorker(g, { kind: "reference" }, 4000), await runInWorker(g, { kind: "stub" }, 4000)];
    const text = formatScorecard(rs);
    expect(text).toMatch(/Total 3\/6 points · 1 passed, 0 failed, 1 not attempted/);
    expect(text).toMatch(/not attempted 0\/3/);
    const gs = toGradescope(rs) as { score: number; max_score: number };
    expect([gs.score, gs.max_score]).toEqual([3, 6]);
    expect(toJUnit(rs)).toMatch(/<testsuite name="fixture" tests="4" failures="0" skipped="2">/);
  });
});

describe("firstDifference", () => {
  it("treats NaN as equal to NaN and honours tolerances and signed zeros", () => {
    expect(firstDifference(NaN, NaN)).toBeNull();
    expect(firstDifference(1.0000001, 1, { tol: { rel: 1e-6 } })).toBeNull();
    expect(firstDifference(1.01, 1, { tol: { rel: 1e-6 } })?.reason).toBe("value differs");
    expect(firstDifference(-0, 0)).toBeNull();
    expect(firstDifference(-0, 0, { signedZero: true })).not.toBeNull();
    expect(firstDifference(Infinity, 1e308, { tol: { rel: 1 } })).not.toBeNull();
  });
  it("reports the path of the first difference in nested values", () => {
    expect(firstDifference({ a: { b: [1, 2] } }, { a: { b: [1, 3] } })?.path).toBe(".a.b[1]");
    expect(firstDifference(new Float32Array([1]), new Float64Array([1]))?.reason).toMatch(/Float32Array/);
  });
  it("formatValue keeps -0 and shortens long arrays", () => {
    expect(formatValue(-0)).toBe("-0");
    expect(formatValue(new Float32Array(20))).toMatch(/… \(20 items\)/);
  });
});

describe("findGraderFiles", () => {
  it("finds hidden graders at DIR/<chapter>/<name>.test.ts and DIR/<name>.test.ts, and rejects a missing folder", async () => {
    const { mkdtempSync, mkdirSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { findGraderFiles } = await import("./discover.js");
    const dir = mkdtempSync(resolve(tmpdir(), "hidden-"));
    mkdirSync(resolve(dir, "precision/mutants"), { recursive: true });
    writeFileSync(resolve(dir, "precision/a.test.ts"), "");
    writeFileSync(resolve(dir, "precision/mutants/a.test.ts"), "");
    writeFileSync(resolve(dir, "b.test.ts"), "");
    expect(findGraderFiles(dir).map((f) => f.slice(dir.length + 1))).toEqual(["b.test.ts", "precision/a.test.ts"]);
    expect(() => findGraderFiles(resolve(dir, "nope"))).toThrow(/no folder of graders at/);
  });
});
