// The solutions policy on what is loaded (load-guard.ts): each known way of handing an
// exercise to its reference, written as a student would in a submission, is refused with
// a message that names the import and why; honest code and named building blocks load.
import { describe, it, expect } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { loadGrader, loadGraders, ROOT } from "./discover.js";
import { runInWorker } from "./runner.js";
import { overlaySubmission } from "./submission.js";
import { loadRule } from "./load-guard.js";
import type { ExerciseResult } from "./grade.js";

/** Grades exercise `id` on a submission made of `files` (paths under exercises/, e.g. "precision/round-bf16.ts"). */
async function gradeSubmission(id: string, files: Record<string, string>): Promise<ExerciseResult> {
  const chapter = Object.keys(files)[0].split("/")[0];
  const g = (await loadGraders([], [chapter])).find((x) => x.exercise.id === id)!;
  const dir = mkdtempSync(join(tmpdir(), "guard-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const tree = overlaySubmission(dir, ROOT, [g.exercise.file]);
  try {
    return await runInWorker(g, { kind: "stub", root: tree.root }, 30_000);
  } finally {
    tree.remove();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A correct roundToBf16 (ties to even on the float32 bits), the student's own. */
const OWN_BF16 = `const f = new Float32Array(1), u = new Uint32Array(f.buffer);
export function own(x: number): number {
  if (Number.isNaN(x)) return NaN;
  f[0] = x; const b = u[0];
  u[0] = ((b + 0x7fff + ((b >>> 16) & 1)) >>> 16) << 16;
  return f[0];
}`;
/** A path into lib/ that no text scan of the stub can see. */
const HIDDEN = (file: string) => `["..", "..", "li" + "b", ${file.split("/").map((p) => JSON.stringify(p)).join(", ")}].join("/")`;

const refused = (r: ExerciseResult, what: RegExp) => {
  expect(r.earned).toBe(0);
  expect(r.status).toBe("failed");
  expect(r.message).toMatch(/^refused to load /);
  expect(r.message).toMatch(what);
  expect(r.message).toMatch(/\(solutions policy, exercises\/README\.md\)$/);
};

describe("the load guard (solutions policy on what is loaded)", () => {
  it("refuses a helper file in the exercise folder that re-exports lib, naming the chain", async () => {
    const r = await gradeSubmission("1.2", {
      "precision/helper.ts": `export { round } from "../../lib/precision/round.js";`,
      "precision/round-bf16.ts": `import { round } from "./helper.js";\nexport const roundToBf16 = (x: number) => round("bf16", x);`,
    });
    refused(r, /^refused to load lib\/precision\/round\.ts from exercises\/precision\/round-bf16\.ts → exercises\/precision\/helper\.ts: it holds the reference solution of exercise 1\.2 \(lib\/precision\/\)/);
  });

  it("refuses a dynamic import whose path is computed at run time, even when the student's code catches the refusal", async () => {
    const r = await gradeSubmission("1.2", {
      "precision/round-bf16.ts": `${OWN_BF16}
let ref: ((x: number) => number) | undefined;
export async function roundToBf16(x: number): Promise<number> {
  try { ref ??= ((await import(${HIDDEN("precision/round.js")})).round as (f: string, x: number) => number).bind(null, "bf16"); } catch { /* fall back to my own */ }
  return ref ? ref(x) : own(x);
}`,
    });
    refused(r, /lib\/precision\/round\.ts from exercises\/precision\/round-bf16\.ts: it holds the reference solution of exercise 1\.2/);
  });

  it("refuses another chapter's lib folder that holds the reference (data-parallel's ring in lib/collectives)", async () => {
    const r = await gradeSubmission("5.2", {
      "data-parallel/hierarchical-all-reduce.ts": `import { hierarchicalAllReduce as h } from "../../lib/collectives/index.js";\nexport const hierarchicalAllReduce = (b: number[][], g: number) => h(b, g);`,
    });
    refused(r, /from exercises\/data-parallel\/hierarchical-all-reduce\.ts → lib\/collectives\/index\.ts: it holds the reference solution of exercise 5\.2 \(lib\/collectives\/hierarchicalAllReduce\.ts/);
  });

  it("refuses a folder's index that re-exports the reference, and follows a building block the exercise names", async () => {
    const viaIndex = await runInWorker(await loadGrader(resolve(ROOT, "test/fixtures/harness/guard/via-index.test.ts")), { kind: "stub" }, 30_000);
    refused(viaIndex, /^refused to load test\/fixtures\/harness\/double-solution\.ts from test\/fixtures\/harness\/guard\/via-index\.ts → test\/fixtures\/harness\/guard\/index\.ts: it holds the reference solution of exercise 99\.6/);
    // The same building block, named by the exercise (`uses`): it loads, and the stub is graded.
    const uses = await runInWorker(await loadGrader(resolve(ROOT, "test/fixtures/harness/guard/uses.test.ts")), { kind: "stub" }, 30_000);
    expect(uses.message).toBeUndefined();
    expect(uses.status).toBe("passed");
    // Not named: the block loads the solution, so it is refused.
    const noUses = await runInWorker(await loadGrader(resolve(ROOT, "test/fixtures/harness/guard/no-uses.test.ts")), { kind: "stub" }, 30_000);
    refused(noUses, /double-solution\.ts from test\/fixtures\/harness\/guard\/no-uses\.ts → test\/fixtures\/harness\/guard\/block\.ts/);
  });

  it("refuses a grader loaded through the harness, require() from a .cjs helper, and child processes", async () => {
    refused(await gradeSubmission("1.2", {
      "precision/round-bf16.ts": `import { loadGrader } from "../harness/discover.js";\nconst g = await loadGrader(new URL("./round-bf16.test.ts", import.meta.url).pathname);\nexport const roundToBf16 = (x: number) => g.exercise.reference(x);`,
    }), /round-bf16\.test\.ts from exercises\/precision\/round-bf16\.ts → exercises\/harness\/discover\.ts: a grader or a mutants file holds a reference/);
    refused(await gradeSubmission("1.2", {
      "precision/helper.cjs": `const p = ${HIDDEN("precision/round.ts")};\nmodule.exports = { get: () => require(p) };`,
      "precision/round-bf16.ts": `import h from "./helper.cjs";\nexport const roundToBf16 = (x: number) => (h as { get(): { round(f: string, x: number): number } }).get().round("bf16", x);`,
    }), /lib\/precision\/round\.ts from exercises\/precision\/helper\.cjs: it holds the reference solution/);
    refused(await gradeSubmission("1.2", {
      "precision/round-bf16.ts": `export function roundToBf16(x: number): number {\n  const cp = (process as unknown as { getBuiltinModule(id: string): { execSync(c: string): Buffer } }).getBuiltinModule("node:child_process");\n  return Number(cp.execSync("echo " + x).toString());\n}`,
    }), /^refused to load node:child_process .*child processes, workers, vm, module hooks and the inspector are not available/);
  });

  it("refuses the file system: the reference's source read with fs and written to a new file under lib/ is never loaded", async () => {
    // The trick a student found: copy lib/precision/round.ts next to it (its relative imports resolve there) and import the copy.
    const copy = resolve(ROOT, "lib/precision/round-copy-by-a-student.ts");
    const trick = (fs: string) => `${fs}
const src = ${HIDDEN("precision/round.ts")};
const dst = src.replace("round.ts", "round-copy-by-a-student.ts");
w(new URL(dst, import.meta.url), r(new URL(src, import.meta.url), "utf8"));
const { round } = (await import(dst.replace(".ts", ".js"))) as { round(f: string, x: number): number };
export const roundToBf16 = (x: number) => round("bf16", x);`;
    try {
      refused(await gradeSubmission("1.2", { "precision/round-bf16.ts": trick(`import { readFileSync as r, writeFileSync as w } from "node:fs";`) }),
        /^refused to load node:fs from exercises\/precision\/round-bf16\.ts: exercises don't read or write files/);
      // through a helper file, fs/promises, and without an import
      refused(await gradeSubmission("1.2", {
        "precision/io.ts": `export { readFile, writeFile } from "fs/promises";`,
        "precision/round-bf16.ts": `import { readFile } from "./io.js";\nvoid readFile;\nexport const roundToBf16 = (x: number) => x;`,
      }), /^refused to load node:fs\/promises from exercises\/precision\/round-bf16\.ts → exercises\/precision\/io\.ts: exercises don't read or write files/);
      refused(await gradeSubmission("1.2", { "precision/round-bf16.ts": trick(`const { readFileSync: r, writeFileSync: w } = (process as unknown as { getBuiltinModule(id: string): typeof import("node:fs") }).getBuiltinModule("fs");`) }),
        /^refused to load node:fs from an exercise's code \(process\.getBuiltinModule\): exercises don't read or write files/);
      expect(existsSync(copy), "the copy was never written").toBe(false);
    } finally {
      rmSync(copy, { force: true });
    }
  });

  it("grades honest code in full, with a lib module that is not the solution", async () => {
    const r = await gradeSubmission("1.2", {
      "precision/round-bf16.ts": `import { mulberry32 } from "../../lib/random.js";\n${OWN_BF16}\nvoid mulberry32;\nexport const roundToBf16 = (x: number) => own(x);`,
    });
    expect(r.message).toBeUndefined();
    expect(r.earned).toBe(r.points);
  });

  it("loadRule forbids the solution and the built copies of lib, and allows the exercise's building blocks", () => {
    const rule = loadRule({ id: "5.6", chapter: "data-parallel", file: "exercises/data-parallel/ddp-reducer.ts", exportName: "createDdpReducer", uses: ["lib/collectives/costModel.ts"] }, ROOT, ROOT);
    expect(rule.forbidden.map((f) => f.path.slice(rule.root.length))).toEqual(["lib/data-parallel/", "src/", "dist/"]);
    expect(rule.allowed.map((f) => f.path.slice(rule.root.length))).toEqual(["lib/collectives/costModel.ts"]);
  });
});

describe("the grading worker", () => {
  it("reports the refusal, not a crash, when the grader needs the module the stub was refused (a chapter's index)", async () => {
    const r = await gradeSubmission("12.4", {
      "plan/choose-plan.ts": `import { enumeratePlans } from "../../lib/plan/index.js";\nexport const choosePlan = (a: never, c: never, w: never) => enumeratePlans(a, c, w)[0];`,
    });
    refused(r, /^refused to load lib\/plan\/\w+\.ts from exercises\/plan\/choose-plan\.ts → lib\/plan\/index\.ts: it holds the reference solution of exercise 12\.4/);
  }, 120_000);

  it("has the main thread's stack: a spread of 200,000 arguments fails there as in the self-check and in a student's script", async () => {
    const r = await gradeSubmission("1.2", {
      "precision/round-bf16.ts": `${OWN_BF16}\nexport const roundToBf16 = (x: number) => { Math.max(...new Array(200_000).fill(0)); return own(x); };`,
    });
    expect(r.earned).toBe(0);
    expect(r.checks.some((c) => c.report?.detail?.startsWith("threw RangeError: Maximum call stack size exceeded"))).toBe(true);
    const ok = await gradeSubmission("1.2", { "precision/round-bf16.ts": `${OWN_BF16}\nexport const roundToBf16 = (x: number) => { Math.max(...new Array(50_000).fill(0)); return own(x); };` });
    expect(ok.earned).toBe(ok.points);
  }, 120_000);
});
