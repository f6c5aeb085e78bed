/**
 * Grades one implementation against one exercise, in process. The runner
 * calls this inside a worker thread that it can terminate; the self-check
 * (test/graders.test.ts) calls it directly on the reference and the mutants.
 */
import { isNotImplemented, type FailureReport } from "./errors.js";
import { totalPoints, type AnyFunction, type Exercise } from "./define.js";

/** The outcome of one check. */
export interface CheckResult {
  name: string;
  points: number;
  earned: number;
  status: "passed" | "failed" | "not-attempted";
  report?: FailureReport;
}

/** The outcome of one exercise. "timeout" and "error" come from the runner. */
export interface ExerciseResult {
  id: string;
  title: string;
  chapter: string;
  file: string;
  points: number;
  earned: number;
  status: "passed" | "partial" | "failed" | "not-attempted" | "timeout" | "error";
  checks: CheckResult[];
  /** Why the whole exercise failed (timeout, missing export, …). */
  message?: string;
  /** What the student's code printed while graded (first 2,000 characters). */
  output?: string;
  /** A "build it" exercise (listed first in its chapter, its checks shown as its parts). */
  build?: boolean;
  /** The page section that derives the exercise (anchor in src/<chapter>.md). */
  section?: string;
  /** Graded by a hidden grader (`--graders DIR`): Gradescope shows it after publication by default. */
  hidden?: boolean;
}

/** The fields of a result that come from the exercise itself. */
export function resultBase(exercise: Exercise<AnyFunction>): Pick<ExerciseResult, "id" | "title" | "chapter" | "file" | "points" | "build" | "section"> {
  return {
    id: exercise.id, title: exercise.title, chapter: exercise.chapter, file: exercise.file, points: totalPoints(exercise),
    ...(exercise.build ? { build: true } : {}), ...(exercise.section ? { section: exercise.section } : {}),
  };
}

/**
 * Which checks {@link gradeExercise} runs. For the grader self-check only (a student is
 * always graded on every check): a mutant needs only the checks that must catch it.
 */
export interface GradeOptions {
  /** Run only the checks with these names. */
  only?: readonly string[];
  /** Stop after the first check that fails. */
  failFast?: boolean;
  /** Called with each check's result as soon as it is known (the worker reports them, so that a deadline keeps them). */
  onCheck?: (check: CheckResult) => void;
}

/** Runs every check of `exercise` (or those `o` selects) on `impl`; never throws. */
export async function gradeExercise<F extends AnyFunction>(exercise: Exercise<F>, impl: unknown, o: GradeOptions = {}): Promise<ExerciseResult> {
  const base = resultBase(exercise as Exercise<AnyFunction>);
  if (typeof impl !== "function") {
    return { ...base, earned: 0, status: "failed", checks: [], message: `${exercise.file} does not export a function named ${exercise.exportName}` };
  }
  // Messages show calls under the exercise's name (roundToBf16(…)), whatever the implementation is called.
  const f = impl as F;
  // A class (e.g. a GradScaler) is subclassed under that name, so that graders can `new` it.
  const isClass = /^class\b/.test(Function.prototype.toString.call(f));
  const named = (isClass
    ? { [exercise.exportName]: class extends (f as unknown as new (...a: unknown[]) => object) {} }[exercise.exportName]
    : { [exercise.exportName]: (...args: Parameters<F>) => f(...args) }[exercise.exportName]) as unknown as F;
  const checks: CheckResult[] = [];
  for (const check of exercise.checks) {
    if (o.only && !o.only.includes(check.name)) continue;
    if (o.failFast && checks.some((c) => c.status === "failed")) break;
    try {
      await check.run(named);
      checks.push({ name: check.name, points: check.points, earned: check.points, status: "passed" });
      o.onCheck?.(checks[checks.length - 1]!);
    } catch (err) {
      if (isNotImplemented(err)) {
        checks.push({ name: check.name, points: check.points, earned: 0, status: "not-attempted" });
      } else {
        const report: FailureReport = (err as { report?: FailureReport })?.report ?? {
          detail: `the check crashed: ${(err as Error)?.name ?? "Error"}: ${(err as Error)?.message ?? String(err)}`,
        };
        checks.push({ name: check.name, points: check.points, earned: 0, status: "failed", report });
      }
      o.onCheck?.(checks[checks.length - 1]!);
    }
  }
  const earned = checks.reduce((s, c) => s + c.earned, 0);
  const status: ExerciseResult["status"] = checks.every((c) => c.status === "not-attempted")
    ? "not-attempted"
    : earned === base.points ? "passed" : earned > 0 ? "partial" : "failed";
  return { ...base, earned, status, checks };
}
