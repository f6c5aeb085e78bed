/**
 * Grades one exercise in a worker thread, so that the runner can stop code
 * that never returns. Input (workerData): {graderFile, target}; output: one
 * message with the ExerciseResult.
 */
import { parentPort, workerData } from "node:worker_threads";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT, loadGrader, loadMutants } from "./discover.js";
import { gradeExercise, type ExerciseResult } from "./grade.js";
import { totalPoints, mutantParts } from "./define.js";

/** What to grade: the student's stub file, the lib reference, or a named mutant. */
export type Target = { kind: "stub" } | { kind: "reference" } | { kind: "mutant"; name: string };

const { graderFile, target } = workerData as { graderFile: string; target: Target };

async function main(): Promise<ExerciseResult> {
  const { exercise } = await loadGrader(graderFile);
  let impl: unknown;
  if (target.kind === "reference") impl = exercise.reference;
  else if (target.kind === "mutant") impl = mutantParts((await loadMutants(graderFile))[target.name]).impl;
  else {
    try {
      const mod = await import(pathToFileURL(resolve(ROOT, exercise.file)).href);
      impl = mod[exercise.exportName];
    } catch (err) {
      return {
        id: exercise.id, title: exercise.title, chapter: exercise.chapter, file: exercise.file,
        points: totalPoints(exercise), earned: 0, status: "error", checks: [],
        message: `could not load ${exercise.file}: ${(err as Error)?.message ?? String(err)}`,
      };
    }
  }
  return gradeExercise(exercise, impl);
}

main().then(
  (result) => parentPort?.postMessage({ ok: true, result }),
  (err) => parentPort?.postMessage({ ok: false, error: `${(err as Error)?.stack ?? String(err)}` }),
);
