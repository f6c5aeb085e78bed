/**
 * Gradescope's run_autograder step: copies a submission's files over the stubs of
 * this copy of the course (exercises/harness/submission.ts says which files count).
 *   tsx scripts/gradescope/copy-submission.ts SUBMISSION_DIR
 */
import { loadGraders, ROOT } from "../../exercises/harness/discover.js";
import { copySubmission } from "../../exercises/harness/submission.js";

const dir = process.argv[2];
if (!dir) {
  console.error("usage: tsx scripts/gradescope/copy-submission.ts SUBMISSION_DIR");
  process.exit(2);
}
const stubs = [...new Set((await loadGraders()).map((g) => g.exercise.file))];
const files = copySubmission(dir, ROOT, stubs);
console.log(files.length ? `copied ${files.length} file${files.length === 1 ? "" : "s"} of the submission:\n${files.map((f) => `  ${f.to}`).join("\n")}` : "the submission has no exercise file: every exercise is graded on its stub");
