/**
 * Errors shared by stubs, graders and the runner.
 *
 * A stub throws {@link NotImplementedError} until the student writes it; the
 * runner reports such an exercise as "not attempted" (it neither passes nor
 * fails). A grader's assertion throws {@link CheckFailure} with a readable
 * report: the call, the expected and received values, the tolerance, a hint.
 */

/** Thrown by an untouched stub; names the exercise id. */
export class NotImplementedError extends Error {
  override name = "NotImplementedError";
  constructor(readonly exerciseId: string) {
    super(`Exercise ${exerciseId} is not implemented yet: replace this throw with your code.`);
  }
}

/**
 * The body of every stub: throws {@link NotImplementedError} for exercise `id`.
 * @example notImplemented("1.2") // throws "Exercise 1.2 is not implemented yet…"
 */
export function notImplemented(id: string): never {
  throw new NotImplementedError(id);
}

/** What a failed check shows the student. Every field is already formatted text. */
export interface FailureReport {
  /** The call that failed, e.g. `roundToBf16(1.01171875)`. */
  call?: string;
  expected?: string;
  received?: string;
  tolerance?: string;
  hint?: string;
  /** Free text for failures that are not a value mismatch. */
  detail?: string;
}

/** Thrown by grader assertions; carries a {@link FailureReport}. */
export class CheckFailure extends Error {
  override name = "CheckFailure";
  constructor(readonly report: FailureReport) {
    super(
      [report.call, report.detail, report.expected && `expected ${report.expected}`, report.received && `received ${report.received}`]
        .filter(Boolean)
        .join(" · "),
    );
  }
}

/** True for an error thrown by an untouched stub (also across module copies). */
export function isNotImplemented(err: unknown): boolean {
  return (err as { name?: string } | null)?.name === "NotImplementedError";
}
