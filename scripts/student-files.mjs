// npm test does not depend on the student's edits (issue 27): a student's exercise files are graded
// by `npm test exercises`, and a type error in them does not fail the suite's type check. This
// module tells the student's files from the course's and splits tsc's output between them.

/**
 * Whether a file (a path from the repository root, `/` separated) is the student's to write: a
 * `.ts` file under `exercises/<chapter>/` (a stub or a helper module of theirs), not a grader
 * (`*.test.ts`), a mutants file or the harness, that no longer calls `notImplemented(` (every stub
 * the course ships does; a new helper file does not).
 * @param {string} path e.g. "exercises/precision/round-bf16.ts"
 * @param {string} text the file's content
 * @example isStudentFile("exercises/precision/round-bf16.ts", "export const f = () => 1;") // true
 */
export function isStudentFile(path, text) {
  if (!/^exercises\/(?!harness\/)[^/]+\/(?!mutants\/)[^/]+\.ts$/.test(path) || path.endsWith(".test.ts")) return false;
  return !text.includes("notImplemented(");
}

/**
 * Splits tsc's output (`--pretty false`: `file(line,col): error TS…: message`, continuation lines
 * indented) into the errors in the student's files and the others.
 * @param {string} output what `tsc --noEmit` printed
 * @param {(path: string) => string} read a file's content by its path from the repository root
 * @returns {{student: string[], course: string[]}} the errors, each with its continuation lines
 */
export function splitTypeErrors(output, read) {
  const student = [], course = [];
  let current = null;
  for (const line of output.split("\n")) {
    const m = /^(\S[^(]*)\(\d+,\d+\): error /.exec(line);
    if (m) {
      let text = "";
      try { text = read(m[1]); } catch { /* a file tsc names but cannot be read: the course's */ }
      current = isStudentFile(m[1].replace(/\\/g, "/"), text) ? student : course;
      current.push(line);
    } else if (line.trim() && current && /^\s/.test(line)) current[current.length - 1] += `\n${line}`;
    else if (line.trim()) course.push(line), (current = null);
  }
  return { student, course };
}
