/**
 * A student's submission: the files of theirs that the grader may use. A
 * submission is a copy of `exercises/` (`<chapter>/<name>.ts`), a repository
 * that holds one (`exercises/<chapter>/<name>.ts`), or the stub files alone
 * (`<name>.ts`, as a student uploads them to Gradescope). Only the student's
 * own files are taken: stubs and helper modules under a chapter's folder,
 * never a grader (`*.test.ts`), a mutants file, or the harness. Node only.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { CHAPTERS } from "../../lib/chapters.js";

/** One file of a submission: where it is, and its path in the repository (`exercises/<chapter>/<name>.ts`). */
export interface SubmittedFile {
  from: string;
  to: string;
}

const CODE = /\.(?:[cm]?[jt]s)$/;

/** The files under `dir` (recursively), skipping node_modules and hidden folders. */
function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    if (n === "node_modules" || n.startsWith(".")) return [];
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** True for a student's file: code, not a grader, not under mutants/ or harness/. */
function isStudentFile(rel: string): boolean {
  const parts = rel.split(sep);
  return CODE.test(rel) && !/\.test\.[cm]?[jt]s$/.test(rel) && !parts.includes("mutants") && !parts.includes("harness");
}

/**
 * The student's files in a submission folder, with the repository path each replaces.
 * @param dir the submission folder (a copy of exercises/, a repository with one, or loose stub files)
 * @param stubs the stubs' repository paths (`exercises/<chapter>/<name>.ts`, from the graders' `file`):
 *   a loose file is matched to the stub of the same name
 * @returns the files, sorted by repository path; [] when nothing in `dir` is the student's
 * @throws Error `no submission folder at <dir>` when `dir` is not a folder
 * @example submissionFiles("sub", ["exercises/memory/count-parameters.ts"])
 *   // sub/exercises/memory/count-parameters.ts, sub/memory/count-parameters.ts or sub/count-parameters.ts
 *   // → [{ from: "…/count-parameters.ts", to: "exercises/memory/count-parameters.ts" }]
 */
export function submissionFiles(dir: string, stubs: readonly string[]): SubmittedFile[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`no submission folder at ${dir}`);
  const slugs = new Set(CHAPTERS.map((c) => c.slug));
  const out = new Map<string, string>();
  const files = walk(dir);
  // A copy of exercises/ (or a repository holding one): <…/>exercises/<chapter>/<path> or <chapter>/<path>.
  for (const f of files) {
    const parts = relative(dir, f).split(sep);
    const i = parts.lastIndexOf("exercises");
    const start = i >= 0 && slugs.has(parts[i + 1]) ? i + 1 : slugs.has(parts[0]) ? 0 : -1;
    if (start < 0) continue;
    const rel = parts.slice(start).join(sep);
    if (isStudentFile(rel)) out.set(join("exercises", rel), f);
  }
  // Loose stub files: matched by name to a stub that no folder above provided.
  for (const stub of stubs) {
    if (out.has(stub)) continue;
    const loose = files.filter((f) => basename(f) === basename(stub) && !relative(dir, f).includes(sep));
    if (loose.length === 1) out.set(stub, loose[0]);
  }
  return [...out].map(([to, from]) => ({ from, to })).sort((a, b) => a.to.localeCompare(b.to));
}

/**
 * Copies a submission's files over the stubs of the repository at `root` (what the Gradescope
 * autograder does in its own copy of the course).
 * @returns the files copied
 */
export function copySubmission(dir: string, root: string, stubs: readonly string[]): SubmittedFile[] {
  const files = submissionFiles(dir, stubs);
  for (const { from, to } of files) {
    mkdirSync(dirname(resolve(root, to)), { recursive: true });
    cpSync(from, resolve(root, to));
  }
  return files;
}

/**
 * A private tree in which a submission's files replace the stubs without touching the
 * repository: `lib/`, `node_modules/`, `package.json` and every chapter's files link to
 * the repository's, and the submitted files are copied over. Graded with the target
 * `{ kind: "file", root }` (harness/worker.ts). Call `remove()` when done.
 */
export function overlaySubmission(dir: string, root: string, stubs: readonly string[]): { root: string; files: SubmittedFile[]; remove(): void } {
  const files = submissionFiles(dir, stubs);
  const tree = mkdtempSync(join(tmpdir(), "submission-"));
  for (const name of ["lib", "node_modules", "package.json", "tsconfig.json"]) {
    if (existsSync(join(root, name))) symlinkSync(join(root, name), join(tree, name));
  }
  mkdirSync(join(tree, "exercises"));
  symlinkSync(join(root, "exercises", "harness"), join(tree, "exercises", "harness"));
  // Each chapter folder is a real folder of copies (a stub's `./types.js` import resolves beside it).
  for (const c of CHAPTERS) {
    const from = join(root, "exercises", c.slug);
    if (existsSync(from)) cpSync(from, join(tree, "exercises", c.slug), { recursive: true });
  }
  // A stub the student did not hand in is the committed one, not the grader's working copy (which may hold the instructor's own attempt).
  const theirs = new Set(files.map((f) => f.to));
  for (const stub of stubs) {
    if (theirs.has(stub)) continue;
    const committed = committedStub(root, stub);
    if (committed !== undefined) writeFileSync(join(tree, stub), committed);
  }
  for (const { from, to } of files) {
    mkdirSync(dirname(join(tree, to)), { recursive: true });
    cpSync(from, join(tree, to));
  }
  return { root: tree, files, remove: () => rmSync(tree, { recursive: true, force: true }) };
}

/** A stub as the repository's last commit holds it (`git show HEAD:<path>`), or undefined outside git or before a first commit. */
function committedStub(root: string, stub: string): string | undefined {
  const r = spawnSync("git", ["show", `HEAD:${stub}`], { cwd: root, encoding: "utf8" });
  return r.status === 0 ? r.stdout : undefined;
}
