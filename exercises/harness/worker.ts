/**
 * Grades one exercise in a worker thread, so that the runner can stop code
 * that never returns. Input (workerData): {graderFile, target}; output: one
 * message with the ExerciseResult.
 */
import { parentPort, workerData } from "node:worker_threads";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT, loadGrader, loadMutants } from "./discover.js";
import { readFileSync } from "node:fs";
import { gradeExercise, resultBase, type ExerciseResult } from "./grade.js";
import { mutantParts } from "./define.js";
import { refusalMessage, solutionImports } from "./policy.js";

/**
 * What to grade: the student's stub file (in the repository, or in `root`: a submission's
 * private tree, harness/submission.ts), the lib reference, or a named mutant.
 */
export type Target = { kind: "stub"; root?: string } | { kind: "reference" } | { kind: "mutant"; name: string };

const { graderFile, target } = workerData as { graderFile: string; target: Target };

async function main(): Promise<ExerciseResult> {
  const { exercise } = await loadGrader(graderFile);
  let impl: unknown;
  if (target.kind === "reference") impl = exercise.reference;
  else if (target.kind === "mutant") impl = mutantParts((await loadMutants(graderFile))[target.name]).impl;
  else {
    const root = target.root ?? ROOT;
    const stubFile = resolve(root, exercise.file);
    // Solutions policy: a stub that imports its exercise's reference from lib/ gets 0, with the reason.
    let source = "";
    try { source = readFileSync(stubFile, "utf8"); } catch { /* reported by the import below */ }
    const cheats = source ? await solutionImports(exercise, stubFile, source, root).catch(() => []) : [];
    if (cheats.length > 0) {
      return { ...resultBase(exercise), earned: 0, status: "failed", checks: [], message: refusalMessage(exercise.file, cheats, exercise) };
    }
    try {
      const mod = await import(pathToFileURL(stubFile).href);
      impl = mod[exercise.exportName];
    } catch (err) {
      return { ...resultBase(exercise), earned: 0, status: "error", checks: [], message: `could not load ${exercise.file}: ${(err as Error)?.message ?? String(err)}` };
    }
  }
  return gradeExercise(exercise, impl);
}

main().then(
  (result) => parentPort?.postMessage({ ok: true, result }),
  (err) => parentPort?.postMessage({ ok: false, error: `${(err as Error)?.stack ?? String(err)}` }),
);
