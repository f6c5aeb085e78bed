/**
 * The shape of an exercise and its grader.
 *
 * A grader file `exercises/<chapter>/<name>.test.ts` default-exports one
 * {@link Exercise}; its stub is `exercises/<chapter>/<name>.ts` and its
 * mutants (plausible wrong implementations) are the `mutants` export of
 * `exercises/<chapter>/mutants/<name>.ts`. See exercises/README.md.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyFunction = (...args: any[]) => any;

/** One graded property of an exercise, worth `points`. `run` throws CheckFailure on failure. */
export interface Check<F extends AnyFunction> {
  /** Short name shown in the scorecard, e.g. "ties to even". */
  name: string;
  /** Positive integer. */
  points: number;
  run(impl: F): void | Promise<void>;
}

/** An exercise: metadata shown on the page box and the scorecard, the lib reference, the checks. */
export interface Exercise<F extends AnyFunction> {
  /** `<chapter number>.<k>`, e.g. "1.2". */
  id: string;
  /** Short title, e.g. "round to bfloat16". */
  title: string;
  /** Chapter slug, e.g. "precision". */
  chapter: string;
  /** The stub's path from the repository root, e.g. "exercises/precision/round-bf16.ts". */
  file: string;
  /** Name of the function the stub exports. */
  exportName: string;
  /** TypeScript signature shown on the page, e.g. "roundToBf16(x: number): number". */
  signature: string;
  /** One paragraph for the page box: what to implement, edge cases, what to read. */
  summary: string;
  /** The reference implementation (calls lib); must earn full marks. */
  reference: F;
  checks: Check<F>[];
  /**
   * A "build it" exercise: the student's code runs inside the course's own training,
   * simulated world or kernel and is graded on the end result (its checks are its parts).
   * The scorecard lists it first in its chapter; it gets a longer deadline (30 s).
   */
  build?: boolean;
  /**
   * The anchor of the page section that derives what this exercise needs,
   * e.g. "rounding-to-nearest-even" for src/precision.md#rounding-to-nearest-even.
   * Hints and `--explain` point there.
   */
  section?: string;
  /**
   * Where this exercise's solution lives: repository paths of lib files or folders
   * (e.g. "lib/precision/round.ts"), optionally naming the function ("lib/precision/round.ts#round").
   * A student must not read them before solving; the grader gives 0 to a stub that imports
   * from them. Default: the chapter's reference folder, `lib/<chapter>/`.
   */
  solution?: string[];
  /**
   * A placeholder written by `npm run new-chapter` or `new-exercise`: its grader passes the
   * self-check, but it is not graded (left out of the scorecard and its totals, the Gradescope
   * results, the Classroom workflow and the home page's points) until its grader is real:
   * delete this line then. `npm test exercises <id>` still grades it when named by its id.
   */
  placeholder?: boolean;
}

/**
 * A plausible wrong implementation of an exercise, and the check (or checks) that
 * must catch it. The grader self-check asserts that every named check fails.
 * A bare function (no `caughtBy`) is still accepted while graders are converted.
 */
export type Mutant<F extends AnyFunction = AnyFunction> = F | { impl: F; caughtBy: string | string[] };

/** The function of a mutant, and the names of the checks that must catch it ([] when unnamed). */
export function mutantParts<F extends AnyFunction>(m: Mutant<F>): { impl: F; caughtBy: string[] } {
  if (typeof m === "function") return { impl: m, caughtBy: [] };
  return { impl: m.impl, caughtBy: Array.isArray(m.caughtBy) ? m.caughtBy : [m.caughtBy] };
}

/** Identity function that type-checks an exercise definition and validates its metadata. */
export function defineExercise<F extends AnyFunction>(exercise: Exercise<F>): Exercise<F> {
  if (!/^\d+\.\d+$/.test(exercise.id)) throw new Error(`exercise id "${exercise.id}" must look like "1.2"`);
  if (exercise.checks.length === 0) throw new Error(`exercise ${exercise.id} has no checks`);
  for (const c of exercise.checks) {
    if (!Number.isInteger(c.points) || c.points <= 0) {
      throw new Error(`exercise ${exercise.id}, check "${c.name}": points must be a positive integer, got ${c.points}`);
    }
  }
  return exercise;
}

/** Whether an exercise counts in a course's grading (not a scaffold's placeholder). */
export const isGraded = (exercise: Pick<Exercise<AnyFunction>, "placeholder">): boolean => !exercise.placeholder;

/** Total points of an exercise. */
export function totalPoints(exercise: Exercise<AnyFunction>): number {
  return exercise.checks.reduce((s, c) => s + c.points, 0);
}
