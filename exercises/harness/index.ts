/**
 * The grading harness: what stubs and graders import. Browser-safe (no Node
 * built-ins), so the page boxes can read exercise metadata.
 */
export { NotImplementedError, notImplemented, CheckFailure, isNotImplemented, type FailureReport } from "./errors.js";
export { defineExercise, totalPoints, isGraded, mutantParts, type Exercise, type Check, type AnyFunction, type Mutant } from "./define.js";
export {
  expectCall, expectSame, expectThrows, callSafely, fail, property, aliasOf, copyArgs, formatReceived,
  type ExpectOptions, type ThrowsOptions, type ThrowsPattern, type ErrorClass, type PropertyOptions,
} from "./expect.js";
export { firstDifference, formatTolerance, type Tolerance, type CompareOptions } from "./compare.js";
export { formatValue, formatCall, typeName } from "./format.js";
export { gradeExercise, type ExerciseResult, type CheckResult, type GradeOptions } from "./grade.js";
