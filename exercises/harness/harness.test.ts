// The grading harness survives whatever a student writes: throwing code,
// NaN, wrong types, mutated inputs, infinite loops, process.exit. Uses a
// fixture exercise (test/fixtures/harness) run in real worker threads.
import { describe, it, expect, beforeAll } from "vitest";
import { resolve } from "node:path";
import { loadGrader, loadMutants, ROOT, type LoadedGrader } from "./discover.js";
import { runInWorker, deadlineOf } from "./runner.js";
import { runtimeImports, solutionImports, solutionNames, solutionPaths } from "./policy.js";
import { contractOf, explainExercise, pageSections, sectionText } from "./explain.js";
import type { ExerciseResult } from "./grade.js";
import { formatScorecard, toGradescope, toJUnit } from "./scorecard.js";
import { mutantParts, aliasOf, CheckFailure, copyArgs, expectCall, expectSame, expectThrows, firstDifference, formatReceived, formatValue, gradeExercise, defineExercise, largeArray } from "./index.js";

/** The report of the CheckFailure that `p` rejects with. */
async function failure(p: Promise<unknown>) {
  try { await p; } catch (err) {
    expect(err).toBeInstanceOf(CheckFailure);
    return (err as CheckFailure).report;
  }
  throw new Error("expected a CheckFailure, but the assertion passed");
}

let g: LoadedGrader;
beforeAll(async () => { g = await loadGrader(resolve(ROOT, "test/fixtures/harness/double.test.ts")); });
// A generous deadline: the machine may be busy; only "never returns" waits for its (short) deadline.
// Each target is graded once (a worker costs about a second) and shared by the tests that read it.
const graded = new Map<string, Promise<ExerciseResult>>();
const once = (key: string, run: () => Promise<ExerciseResult>) => { if (!graded.has(key)) graded.set(key, run()); return graded.get(key)!; };
const mutant = (name: string, ms = 15_000) => once(`mutant ${name} ${ms}`, () => runInWorker(g, { kind: "mutant", name }, ms));
const stub = () => once("stub", () => runInWorker(g, { kind: "stub" }, 15_000));
const reference = () => once("reference", () => runInWorker(g, { kind: "reference" }, 15_000));
// What does not depend on the worker (the checks' verdicts) is graded in process: a worker costs CPU.
const inProcess = async (name: string) => gradeExercise(g.exercise, mutantParts((await loadMutants(g.graderFile))[name]).impl);

describe("runInWorker", () => {
  it("reports an untouched stub as not attempted with 0 points", async () => {
    const r = await stub();
    expect(r.status).toBe("not-attempted");
    expect(r.earned).toBe(0);
  });
  it("gives the reference full marks, and an async right answer too", async () => {
    expect((await reference()).earned).toBe(3);
    expect((await inProcess("is async and right")).earned).toBe(3);
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
    const [typeError, nan, string, mutates] = await Promise.all(["throws a TypeError", "returns NaN", "returns a string", "mutates its input"].map(inProcess));
    expect(typeError.checks[0].report?.detail).toMatch(/^threw TypeError/);
    expect(nan.checks[0].report?.received).toBe("NaN");
    expect(string.checks[0].report?.detail).toMatch(/returned string, expected array/);
    expect(mutates.checks[0].report?.detail).toMatch(/mutated its argument #1/);
  });
  it("stops code that never returns at the deadline and still reports", async () => {
    const r = await mutant("never returns", 1500);
    expect(r.status).toBe("timeout");
    expect(r.earned).toBe(0);
  });
  it("keeps the points of the checks that finished before the deadline", async () => {
    const r = await mutant("right on the worked example, then never returns", 3000);
    expect(r.status).toBe("timeout");
    expect(r.earned).toBe(1);
    expect(r.checks.map((c) => [c.name, c.status, c.earned])).toEqual([["worked example", "passed", 1], ["random arrays", "failed", 0]]);
    expect(r.checks[1]!.report?.detail).toBe("stopped after 3 s in this check");
    expect(r.message).toMatch(/^stopped after 3 s in check "random arrays" \(the checks before it keep their points\)/);
  });
  it("survives process.exit in student code", async () => {
    const r = await mutant("calls process.exit");
    expect(r.status).toBe("error");
    expect(r.message).toMatch(/exited with code 3/);
  });
});

describe("aliasing: a result is made of new arrays and objects", () => {
  it("fails a fixture that returns its (empty) input as is, naming the argument", async () => {
    const r = await inProcess("returns its input when it is empty");
    expect(r.status).toBe("partial");
    const random = r.checks.find((c) => c.name === "random arrays")!;
    expect(random.status).toBe("failed");
    expect(random.report?.call).toBe("double([])");
    expect(random.report?.detail).toBe("returned argument #1 itself: return a new array or object, not the caller's input");
  });
  it("expectCall names nested shared arrays and views on an argument's memory, on both sides", async () => {
    const keep = (o: { w: number[]; b: number[] }) => ({ w: o.w.map((x) => x + 1), b: o.b });
    const r1 = await failure(expectCall(keep, [{ w: [1], b: [2] }], { w: [2], b: [2] }, { name: "step" }));
    expect(r1.detail).toBe("the result at .b is argument #1 (at .b) itself, not a new array or object: the caller's data and your result must not be shared");
    const head = (xs: Float32Array) => xs.subarray(0, 2);
    const r2 = await failure(expectCall(head, [new Float32Array([1, 2, 3])], new Float32Array([1, 2]), { name: "head" }));
    expect(r2.detail).toMatch(/^the result is a view on the memory of argument #1: /);
    const second = (_a: number, rows: number[][]) => [rows[1]];
    const r3 = await failure(expectCall(second, [0, [[1], [2]]], [[2]], { name: "pick" }));
    expect(r3.detail).toMatch(/^the result at \[0\] is argument #2 \(at \[1\]\) itself/);
  });
  it("accepts new containers, primitives, and shared ones where the grader allows it", async () => {
    await expectCall((xs: number[]) => [...xs], [[1, 2]], [1, 2]);
    await expectCall((o: { a: number }) => o.a, [{ a: 3 }], 3);
    await expectCall((xs: number[]) => xs, [[1]], [1], { allowAliasing: true });
    expect(aliasOf(new Float32Array(2), [new Float32Array(2)])).toBeNull();
    const xs = [1, 2];
    expect(aliasOf({ y: [xs] }, [{ x: xs }])).toEqual({ resultPath: ".y[0]", argument: 1, argumentPath: ".x", view: false });
  });
  it("copyArgs copies containers deeply (views stay on one buffer) and passes class instances as they are", () => {
    class Box { constructor(readonly v: number[]) {} }
    const buf = new ArrayBuffer(16);
    const a = new Float32Array(buf, 0, 2), b = new Float32Array(buf, 8, 2);
    const box = new Box([1]);
    const [ca, cb, cbox, cmap] = copyArgs([a, b, box, new Map([["k", [1]]])] as const);
    expect(ca).not.toBe(a);
    expect(ca.buffer).toBe(cb.buffer);
    expect(ca.buffer).not.toBe(buf);
    expect(cbox).toBe(box);
    expect(cmap.get("k")).toEqual([1]);
  });
});

describe("expectThrows", () => {
  const badBits = (bits: number): number => { if (bits < 0) throw new TypeError(`bits must be >= 0, got ${bits}`); return bits; };
  it("requires the error's class when the grader names one, and says which class was thrown", async () => {
    const r = await failure(expectThrows(badBits, [-1], /bits/, { class: RangeError, name: "decode" }));
    expect(r.call).toBe("decode(-1)");
    expect(r.detail).toBe('threw TypeError ("bits must be >= 0, got -1"), expected a RangeError whose message matches /bits/');
    const r2 = await failure(expectThrows(badBits, [-1], { message: /bits/, class: RangeError }));
    expect(r2.detail).toMatch(/^threw TypeError .* expected a RangeError/);
  });
  it("accepts the class, a subclass, and checks the message as well", async () => {
    class BitsError extends RangeError {}
    await expectThrows((x: number) => { throw new RangeError(`bits ${x}`); }, [1], /bits/, { class: RangeError });
    await expectThrows(() => { throw new BitsError("bits"); }, [], { class: RangeError });
    const r = await failure(expectThrows(() => { throw new RangeError("nope"); }, [], /bits/, { class: RangeError }));
    expect(r.detail).toBe('threw RangeError "nope", expected a message matching /bits/');
    const r2 = await failure(expectThrows((x: number) => x, [1], undefined, { class: RangeError }));
    expect(r2.detail).toBe("returned 1 instead of throwing a RangeError");
  });
});

describe("received values are shown as themselves", () => {
  // A format that shows the bits of the value rounded to fp16: 2049 would look like 2048.
  const roundedBits = (v: unknown) => `${formatValue(v)} (0x${(Math.abs((v as number) - 2048) <= 1 ? 0x6800 : 0x6801).toString(16)})`;
  it("formatReceived drops a rendering that cannot be told from the expected one's", () => {
    expect(formatReceived(2049, 2048, roundedBits)).toBe("2049");
    expect(formatReceived(2049, 2048)).toBe("2049");
    expect(formatReceived(4000, 2048, roundedBits)).toBe("4000 (0x6801)");
    expect(formatReceived(-0, 0)).toBe("-0");
  });
  it("expectSame reports the received value, never the expected value's rendering", async () => {
    const r = await failure(expectSame((x: number) => x + 1, (x: number) => x, [2048], { format: roundedBits }));
    expect(r.expected).toBe("2048 (0x6800)");
    expect(r.received).toBe("2049");
  });
  it("gradeExercise grades a class export (subclassed under the exercise's name)", async () => {
    class Counter { n = 0; inc() { return ++this.n; } }
    const ex = defineExercise({
      id: "99.2", title: "counter", chapter: "fixture", file: "x.ts", exportName: "Counter", signature: "class Counter", summary: "",
      reference: Counter as unknown as () => void,
      checks: [{ name: "counts", points: 1, run: (C) => { const c = new (C as unknown as typeof Counter)(); c.inc(); if (c.inc() !== 2) throw new Error("wrong"); if ((C as { name?: string }).name !== "Counter") throw new Error("name"); } }],
    });
    expect((await gradeExercise(ex, Counter)).earned).toBe(1);
  });
});

describe("gradeExercise options (for the self-check)", () => {
  it("runs only the named checks, or stops at the first failure", async () => {
    const wrong = (xs: number[]) => xs.map((x) => x + 2);
    expect((await gradeExercise(g.exercise, wrong, { only: ["random arrays"] })).checks.map((c) => [c.name, c.status])).toEqual([["random arrays", "failed"]]);
    expect((await gradeExercise(g.exercise, wrong, { failFast: true })).checks.map((c) => c.name)).toEqual(["worked example"]);
    expect((await gradeExercise(g.exercise, wrong)).checks).toHaveLength(2);
  });
});

describe("scorecard", () => {
  it("formatScorecard(results) prints per-exercise lines and the total", async () => {
    const rs = [await reference(), await stub()];
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

describe("solutions policy", () => {
  it("runtimeImports finds value imports, re-exports and dynamic imports, not type imports or comments", async () => {
    const src = [
      `import type { A } from "./types.js";`,
      `import { round } from "../../lib/precision/index.js";`,
      `// import { x } from "../../lib/memory/index.js";`,
      `/** @example import { y } from "../../lib/amp/index.js" */`,
      `export * from "./more.js";`,
      `const m = await import("../../lib/nn/index.js");`,
      `export const f = (x: A) => round("bf16", x) + m.z;`,
    ].join("\n");
    expect((await runtimeImports(src)).sort()).toEqual(["../../lib/nn/index.js", "../../lib/precision/index.js", "./more.js"]);
  });
  it("solutionImports flags imports from lib/<chapter>/ (the default) or the exercise's solution files", async () => {
    const stub = resolve(ROOT, "exercises/precision/x.ts");
    const src = `import { round } from "../../lib/precision/round.js";\nimport { matmul } from "../../lib/nn/index.js";\nexport const f = (x: number) => round("bf16", matmul(x));`;
    expect(await solutionImports({ chapter: "precision" }, stub, src, ROOT)).toEqual(["../../lib/precision/round.js"]);
    expect(await solutionImports({ chapter: "precision", solution: ["lib/nn/index.ts#matmul"] }, stub, src, ROOT)).toEqual(["../../lib/nn/index.js"]);
    expect(await solutionImports({ chapter: "memory" }, stub, src, ROOT)).toEqual([]);
    // the ways around a plain relative import that a student found: the src/lib link, the package's own name, createRequire
    const around = [
      `import { logsumexp } from "../../src/lib/precision/logsumexp.js";\nexport const f = logsumexp;`,
      `import { c } from "llm-training-course/lib/precision/isCausalAllowed.js";\nexport const f = c;`,
      `import { createRequire } from "node:module";\nconst d = createRequire(import.meta.url)("../../lib/precision/decode.ts");\nexport const f = d.decode;`,
      // a page's bundle (src/bundles/precision.ts re-exports lib/precision/index.js; its .js holds the code)
      `import { round } from "../../src/bundles/precision.js";\nexport const f = round;`,
    ];
    for (const a of around) expect(await solutionImports({ chapter: "precision" }, stub, a, ROOT), a).toHaveLength(1);
    expect(await solutionImports({ chapter: "precision", solution: ["lib/precision/round.ts#round"] }, stub, `import { round } from "../../src/bundles/precision.js";\nexport const f = round;`, ROOT)).toHaveLength(1);
    expect(await solutionImports({ chapter: "memory" }, stub, `import { round } from "../../src/bundles/precision.js";\nexport const f = round;`, ROOT)).toEqual([]);
    expect(await solutionImports({ chapter: "precision" }, stub, `import { x } from "llm-training-course/lib/nn/index.js";\nexport const s = "see lib/precision/round.ts" + x;`, ROOT)).toEqual([]);
    expect(solutionPaths({ chapter: "amp" })).toEqual(["lib/amp/"]);
    expect(solutionNames({ chapter: "amp", solution: ["lib/amp/GradScaler.ts#GradScaler"] })).toEqual(["GradScaler (lib/amp/GradScaler.ts)"]);
  });
  it("the grader refuses a stub that imports its reference: 0 points and a one-line reason", async () => {
    const cheat = await loadGrader(resolve(ROOT, "test/fixtures/harness/cheat.test.ts"));
    const r = await runInWorker(cheat, { kind: "stub" }, 15_000);
    expect(r.status).toBe("failed");
    expect(r.earned).toBe(0);
    expect(r.message).toBe(`test/fixtures/harness/cheat.ts imports "./double-solution.js", the reference solution (test/fixtures/harness/double-solution.ts): write your own code (solutions policy, exercises/README.md)`);
    expect(formatScorecard([r])).toContain(r.message);
  });
});

describe("build it", () => {
  const result = (id: string, build: boolean, earned: number, checks: ExerciseResult["checks"]): ExerciseResult => ({
    id, title: `exercise ${id}`, chapter: "precision", file: "f.ts", points: 3, earned, status: earned === 3 ? "passed" : "partial", checks, ...(build ? { build: true } : {}),
  });
  const part = (name: string, ok: boolean) => ({ name, points: ok ? 1 : 2, earned: ok ? 1 : 0, status: ok ? "passed" as const : "failed" as const, ...(ok ? {} : { report: { detail: `${name} is off` } }) });
  it("the scorecard lists the chapter's build-it exercise first, its parts indented beneath it, then the short exercises", () => {
    const text = formatScorecard([result("1.1", false, 3, [part("a", true)]), result("1.5", true, 1, [part("loss decreases", true), part("weights bit for bit", false)])]).split("\n");
    const at = (re: RegExp) => text.findIndex((l) => re.test(l));
    expect(at(/Build it/)).toBeLessThan(at(/1\.5 exercise 1\.5/));
    expect(at(/1\.5 exercise 1\.5/)).toBeLessThan(at(/^\s+Exercises$/));
    expect(at(/^\s+Exercises$/)).toBeLessThan(at(/1\.1 exercise 1\.1/));
    expect(text[at(/✓ loss decreases \(1\)/)]).toMatch(/^ {6}✓ loss decreases/);
    expect(text[at(/✗ weights bit for bit \(0\/2\)/)]).toMatch(/^ {6}✗/);
    expect(text[at(/weights bit for bit is off/)]).toMatch(/^ {12}weights bit for bit is off/);
  });
  it("a build-it exercise gets a 30 s deadline, the others 10 s, both configurable", async () => {
    const cheat = await loadGrader(resolve(ROOT, "test/fixtures/harness/cheat.test.ts"));
    expect(deadlineOf(cheat)).toBe(30_000);
    expect(deadlineOf(g)).toBe(10_000);
    expect(deadlineOf(cheat, { buildTimeoutMs: 5000, timeoutMs: 1000 })).toBe(5000);
  });
});

describe("--explain", () => {
  const md = [
    "# Title", "", "## Rounding to nearest even", "", "Prose with ${x.toFixed(2)} and ${f({a: 1})} and 2<sup>10</sup>.", "",
    "```js", "## not a heading", "```", "", "### A detail", "more", "", "## Rounding to nearest even", "again", "## `fp16`: bits", "end",
  ].join("\n");
  it("pageSections gives Framework's heading ids (duplicates numbered, fenced code skipped) and each section's extent", async () => {
    const s = await pageSections(md);
    expect(s.map((x) => x.id)).toEqual(["title", "rounding-to-nearest-even", "a-detail", "rounding-to-nearest-even-1", "fp16-bits"]);
    expect(sectionText(md, s[1])).toBe(["## Rounding to nearest even", "", "Prose with … and … and 2^10.", "", "  [code or a figure: see the page]", "", "### A detail", "more"].join("\n"));
  });
  it("sectionText prints a page's string constant (`${CONVENTION}`) when given its value; expressions stay …", async () => {
    const page = "## Conventions\n\n**Convention.** ${CONVENTION} And ${x.toFixed(2)}, ${COUNT}.\n";
    const [sec] = await pageSections(page);
    expect(sectionText(page, sec!, { CONVENTION: "Bytes per GPU.", COUNT: 3 })).toBe("## Conventions\n\n**Convention.** Bytes per GPU. And …, ….");
  });
  it("contractOf returns the stub's TSDoc and signature", () => {
    const src = `import x from "y";\n/**\n * Exercise 9.9 — do it.\n *\n * @param a the input\n */\nexport function doIt(a: number): number {\n  return a;\n}\n`;
    expect(contractOf(src, "doIt")).toBe("Exercise 9.9 — do it.\n\n@param a the input\n\nexport function doIt(a: number): number");
    expect(contractOf(src, "other")).toBe("");
  });
  it("explainExercise prints the section's path and text, the contract, and what not to read", async () => {
    const { mkdtempSync, mkdirSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const root = mkdtempSync(resolve(tmpdir(), "explain-"));
    mkdirSync(resolve(root, "src"));
    mkdirSync(resolve(root, "test/fixtures/harness"), { recursive: true });
    writeFileSync(resolve(root, "src/fixture.md"), "# Fixture\n\n## Doubling\n\nTwice a number is the number added to itself.\n\n## Next\n");
    writeFileSync(resolve(root, "test/fixtures/harness/cheat.ts"), "/** Double each item. */\nexport function cheat(xs: number[]): number[] {\n  return xs;\n}\n");
    const cheat = await loadGrader(resolve(ROOT, "test/fixtures/harness/cheat.test.ts"));
    const text = await explainExercise(cheat.exercise, root);
    expect(text).toContain("Exercise 99.3 — double every item, by importing the solution (build it) · 3 points");
    expect(text).toContain("page section: /fixture#doubling");
    expect(text).toContain("## Doubling\n\nTwice a number is the number added to itself.\n");
    expect(text).not.toContain("## Next");
    expect(text).toContain("Double each item.\n\nexport function cheat(xs: number[]): number[]");
    expect(text).toContain("do not read before solving: doubleAll (test/fixtures/harness/double-solution.ts)");
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

describe("mutation and large inputs", () => {
  it("the mutation check sees a key added to the caller's object or array, and a changed Map or Set", async () => {
    const addsKey = (o: { a: number }) => { (o as Record<string, unknown>).cache = 1; return o.a; };
    expect((await failure(expectCall(addsKey, [{ a: 1 }], 1)))?.detail).toMatch(/^mutated its argument #1 \(added key "cache" at \.cache\)/);
    const tagsArray = (xs: number[]) => { (xs as unknown as Record<string, unknown>).seen = true; return xs.length; };
    expect((await failure(expectCall(tagsArray, [[1, 2]], 2)))?.detail).toMatch(/added key "seen"/);
    const nested = (o: { inner: { x: number } }) => { (o.inner as Record<string, unknown>).y = 2; return 0; };
    expect((await failure(expectCall(nested, [{ inner: { x: 1 } }], 0)))?.detail).toMatch(/added key "y" at \.inner\.y/);
    const mapped = (m: Map<string, number>) => { m.set("b", 2); return 0; };
    expect((await failure(expectCall(mapped, [new Map([["a", 1]])], 0)))?.detail).toMatch(/mutated its argument #1 \(changed it\)/);
    expect(firstDifference(new Set([1, 2]), new Set([1, 3]))?.reason).toBe("missing item 3");
    expect(firstDifference({ a: 1, b: 2 }, { a: 1 })).toBeNull(); // a result may carry more keys
    expect(firstDifference({ a: 1, b: 2 }, { a: 1 }, { exactKeys: true })?.reason).toBe('added key "b"');
  });
  it("largeArray is deterministic, and a stack overflow on a large input says what usually causes it", async () => {
    const xs = largeArray(1_000_000, 7);
    expect(xs).toHaveLength(1_000_000);
    expect(largeArray(5, 7)).toEqual(xs.slice(0, 5));
    expect(xs.every((x) => x >= -1 && x < 1)).toBe(true);
    const spread = (v: number[]) => Math.max(...v);
    const report = await failure(expectCall(spread, [xs], 1));
    expect(report?.detail).toMatch(/^threw RangeError: .*an array spread into a call's arguments such as Math\.max\(\.\.\.xs\)/);
    expect(report?.call).toMatch(/… \(1000000 items\)\]\)$/);
  });
});
