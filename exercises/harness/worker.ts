/**
 * Grades one exercise in a worker thread, so that the runner can stop code
 * that never returns. Input (workerData): {graderFile, target, guarded};
 * output: one message with the ExerciseResult.
 *
 * A student's stub is imported before its grader, under the load guard
 * (load-guard.ts): every module it reaches is loaded fresh and checked, so
 * that nothing the stub loads, by any path, reaches the exercise's reference.
 */
import { parentPort, workerData } from "node:worker_threads";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT, loadGrader, loadMutants } from "./discover.js";
import { readFileSync } from "node:fs";
import { gradeExercise, resultBase, type CheckResult, type ExerciseResult } from "./grade.js";
import { mutantParts, type AnyFunction, type Exercise } from "./define.js";
import { refusalMessage, solutionImports } from "./policy.js";
import { installLoadGuard, loadRule, type GuardedExercise } from "./load-guard.js";

/**
 * What to grade: the student's stub file (in the repository, or in `root`: a submission's
 * private tree, harness/submission.ts), the lib reference, or a named mutant.
 */
export type Target = { kind: "stub"; root?: string } | { kind: "reference" } | { kind: "mutant"; name: string };

const { graderFile, target, guarded } = workerData as { graderFile: string; target: Target; guarded: GuardedExercise };

/** Each check's result as soon as it is known: if the deadline stops a later check, these are kept. */
const report = (check: CheckResult) => parentPort?.postMessage({ check });

/** The stub was refused and the grader could not load without the module it was refused. */
class Refused extends Error {}

async function gradeStub(root: string): Promise<ExerciseResult> {
  const stubFile = resolve(root, guarded.file);
  // The text of its imports first: an editor's auto-import of the reference gets a precise one-line reason.
  let source = "";
  try { source = readFileSync(stubFile, "utf8"); } catch { /* reported by the import below */ }
  const cheats = source ? await solutionImports(guarded, stubFile, source, root).catch(() => []) : [];
  if (cheats.length > 0) {
    const { exercise } = await loadGrader(graderFile);
    return { ...resultBase(exercise), earned: 0, status: "failed", checks: [], message: refusalMessage(guarded.file, cheats, guarded) };
  }
  // Then what is loaded: the stub before its grader, so that every module it reaches is seen.
  const guard = installLoadGuard(loadRule(guarded, root, ROOT));
  let impl: unknown;
  let loadError: string | undefined;
  try {
    impl = (await import(pathToFileURL(stubFile).href))[guarded.exportName];
  } catch (err) {
    loadError = `could not load ${guarded.file}: ${(err as Error)?.message ?? String(err)}`;
  }
  const refused = () => guard.refusals();
  // Imported from here, not through discover.ts: the student's code may have loaded that module.
  // A module the guard refused stays refused: when the grader needs it too (a chapter's index
  // that the stub imported), the refusal is the result, reported by the runner.
  let exercise: Exercise<AnyFunction>;
  try {
    exercise = (await import(pathToFileURL(graderFile).href)).default as Exercise<AnyFunction>;
  } catch (err) {
    if (refused().length > 0) throw new Refused(refused()[0]);
    throw err;
  }
  if (refused().length > 0) return { ...resultBase(exercise), earned: 0, status: "failed", checks: [], message: refused()[0] };
  if (loadError) return { ...resultBase(exercise), earned: 0, status: "error", checks: [], message: loadError };
  const result = await gradeExercise(exercise, impl, { onCheck: report });
  // A refusal the student's code caught (a dynamic import at run time) still costs the exercise.
  if (refused().length > 0) return { ...result, earned: 0, status: "failed", checks: [], message: refused()[0] };
  return result;
}

async function main(): Promise<ExerciseResult> {
  if (target.kind === "stub") return gradeStub(target.root ?? ROOT);
  const { exercise } = await loadGrader(graderFile);
  const impl = target.kind === "reference" ? exercise.reference : mutantParts((await loadMutants(graderFile))[target.name]).impl;
  return gradeExercise(exercise, impl, { onCheck: report });
}

main().then(
  (result) => parentPort?.postMessage({ ok: true, result }),
  (err) => parentPort?.postMessage(err instanceof Refused ? { ok: false, refused: err.message } : { ok: false, error: `${(err as Error)?.stack ?? String(err)}` }),
);
