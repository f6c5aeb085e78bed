/**
 * The student's grading command, and the autograder's (see harness/cli.ts).
 *
 *   npm test exercises [chapter|id …] [-- --watch]
 *   npm test exercises [chapter] -- --explain <id>     the page section and the contract of an exercise
 *   npm run grade -- [chapter|id …] [--format text|json|gradescope|junit] [--out FILE] [--graders DIR]
 *                    [--hidden-visibility V] [--timeout MS] [--build-timeout MS] [--explain ID] [--strict] [--require-full]
 *
 * Exit status: 0 when grading ran and its results were printed or written
 * (whatever the score); 1 when grading could not run (a grader that does not
 * load, an output file that cannot be written); 2 on a usage error (an unknown
 * flag, chapter or exercise: the message suggests the nearest valid name).
 * With --strict, also 1 when an attempted exercise lost points; with --require-full,
 * 1 unless every selected exercise earned all its points (GitHub Classroom: exit 0 = points).
 */
import "./harness/register-hooks.mjs"; // `llm-training-course/…` for graders outside the repository
import { gradeCommand } from "./harness/cli.js";
import { RESULTS_FILE } from "./harness/results.js";

// Each grading is also kept for the site: npm run dev shows it in the exercise boxes.
const code = await gradeCommand(process.argv.slice(2), console, { saveResults: RESULTS_FILE });
if (code !== null) process.exit(code);
