/**
 * Runs graders in worker threads with a deadline, a few at a time, and never
 * fails as a whole: an exercise whose code throws, hangs or crashes the worker
 * gets a result with a reason and zero points.
 */
import { Worker } from "node:worker_threads";
import { fileURLToPath } from "node:url";
import { resultBase, type CheckResult, type ExerciseResult } from "./grade.js";
import type { LoadedGrader } from "./discover.js";
import type { Target } from "./worker.js";

const WORKER = fileURLToPath(new URL("./worker-entry.mjs", import.meta.url));

/** Options of {@link runGraders}. */
export interface RunOptions {
  /** Per-exercise deadline in ms (default 10,000). */
  timeoutMs?: number;
  /** Deadline of a "build it" exercise in ms (default 30,000): its checks train or simulate. */
  buildTimeoutMs?: number;
  /** Exercises graded at once (default 2, the cores of a small machine). */
  concurrency?: number;
  target?: Target;
}

/** Grades one exercise in a fresh worker; resolves with a result whatever happens. */
export function runInWorker(g: LoadedGrader, target: Target = { kind: "stub" }, timeoutMs = 10_000): Promise<ExerciseResult> {
  const base = { ...resultBase(g.exercise), earned: 0, checks: [] };
  return new Promise((resolve) => {
    const { id, chapter, file, exportName, solution, uses } = g.exercise;
    const guarded = { id, chapter, file, exportName, solution, uses };
    // A worker's stack is 4 MB by default, four times the main thread's (node's --stack-size, 984 kB):
    // a spread of 300,000 arguments or a recursion 40,000 deep would pass here and fail in the
    // self-check (test/graders.test.ts grades in the main thread) and in a student's own script.
    // 1 MB keeps the limits the main thread has.
    const worker = new Worker(WORKER, { workerData: { graderFile: g.graderFile, target, guarded }, stdout: true, stderr: true, resourceLimits: { stackSizeMb: 1 } });
    let done = false;
    let printed = "";
    const keep = (chunk: Buffer) => { if (printed.length < 2000) printed += chunk.toString(); };
    worker.stdout.on("data", keep);
    worker.stderr.on("data", keep);
    const finish = (r: ExerciseResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      void worker.terminate();
      const withHidden = g.hidden ? { ...r, hidden: true } : r;
      resolve(printed.trim() ? { ...withHidden, output: printed.trim().slice(0, 2000) } : withHidden);
    };
    // The checks that finished before the deadline keep their points; the one running and those after it get none.
    const finished: CheckResult[] = [];
    const stopped = `stopped after ${timeoutMs / 1000} s`;
    const timer = setTimeout(() => {
      const left = g.exercise.checks.filter((c) => !finished.some((d) => d.name === c.name));
      const checks: CheckResult[] = [
        ...finished,
        ...left.map((c, i): CheckResult => ({ name: c.name, points: c.points, earned: 0, status: "failed", report: { detail: i === 0 ? `${stopped} in this check` : `not run: ${stopped} in "${left[0]!.name}"` } })),
      ];
      finish({ ...base, checks, earned: finished.reduce((s, c) => s + c.earned, 0), status: "timeout",
        message: `${stopped}${finished.length ? ` in check "${left[0]?.name}" (the checks before it keep their points)` : ""}: does your code loop forever (a loop whose condition never changes, or a recursion without a base case), or is it too slow for the input the check gives?` });
    }, timeoutMs);
    worker.on("message", (m: { ok?: boolean; result?: ExerciseResult; error?: string; refused?: string; check?: CheckResult }) => {
      if (m.check) { finished.push(m.check); return; }
      if (m.refused) { finish({ ...base, status: "failed", message: m.refused }); return; }
      finish(m.ok && m.result ? m.result : { ...base, status: "error", message: `the grader crashed: ${m.error}` });
    });
    worker.on("error", (err) => finish({ ...base, status: "error", message: `your code crashed the grader: ${err.message}` }));
    worker.on("exit", (code) => finish({ ...base, status: "error", message: `the grading worker exited with code ${code} (out of memory, or process.exit in your code?)` }));
  });
}

/** The deadline of one exercise: `buildTimeoutMs` (30 s) for a "build it" exercise, `timeoutMs` (10 s) otherwise. */
export function deadlineOf(g: LoadedGrader, o: RunOptions = {}): number {
  return g.exercise.build ? o.buildTimeoutMs ?? BUILD_TIMEOUT_MS : o.timeoutMs ?? TIMEOUT_MS;
}

/** Default deadlines (ms): a short exercise, and a "build it" exercise. */
export const TIMEOUT_MS = 10_000, BUILD_TIMEOUT_MS = 30_000;

/** Grades every exercise of `graders`, `concurrency` at a time, in the order given. */
export async function runGraders(graders: LoadedGrader[], o: RunOptions = {}): Promise<ExerciseResult[]> {
  const results: ExerciseResult[] = new Array(graders.length);
  let next = 0;
  const lane = async () => {
    while (next < graders.length) {
      const i = next++;
      results[i] = await runInWorker(graders[i], o.target, deadlineOf(graders[i], o));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, o.concurrency ?? 2) }, lane));
  return results;
}
