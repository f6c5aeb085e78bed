/**
 * The solutions policy on what is loaded, not on the text of the imports: in a
 * grading worker, before the student's stub is imported, the module hooks of
 * load-guard-hook.mjs follow every import reached from the stub and refuse the
 * ones that would load the exercise's reference. The same rule covers
 * `require` (createRequire) and `process.getBuiltinModule` in this thread, and
 * module hooks cannot be registered over it. Node only.
 */
import { realpathSync } from "node:fs";
import Module, { register, syncBuiltinESMExports } from "node:module";
import { resolve, sep } from "node:path";
import { MessageChannel, receiveMessageOnPort, type MessagePort } from "node:worker_threads";
import type { AnyFunction, Exercise } from "./define.js";
import { solutionNames, solutionPaths } from "./policy.js";

/** What the guard needs to know of an exercise (sent to the grading worker before its grader loads). */
export type GuardedExercise = Pick<Exercise<AnyFunction>, "id" | "chapter" | "file" | "exportName" | "solution" | "uses">;

/** A file or folder (path ending in "/") that the student's modules may not load, and why. */
export interface Forbidden { path: string; folder: boolean; why: string }

/** The rule of one grading: real absolute paths. */
export interface LoadRule {
  stub: string;
  /** The repository, and the tree of the stub (the same, or a submission's): paths are shown from them. */
  root: string;
  tree: string;
  forbidden: Forbidden[];
  /** Building blocks the exercise names (its `uses`): loadable, and their own imports are not followed. */
  allowed: { path: string; folder: boolean }[];
}

/** Builtins that run code outside the grader's hooks: a student's module may not load them. */
export const OUTSIDE_BUILTINS = ["child_process", "worker_threads", "cluster", "vm", "module", "inspector", "inspector/promises", "wasi", "repl"];

/**
 * The file system: a student's module (the stub, its helpers, and every module they reach
 * that is not a named building block) may not load it. A student read the reference's source
 * with `fs`, wrote it to a new file under lib/<chapter>/ (where its relative imports resolve)
 * and imported the copy. Refusing untracked files under lib/ would close that one place only:
 * the copy could go anywhere with its imports rewritten, or its text could be evaluated. Without
 * `fs` there is no way to read the reference's text or write a copy, and exercises never need
 * files (the grader hands them their inputs); the course's code that reads files (the CLIs,
 * a preset's config.json) is not reached by a stub, and a building block (`uses`) is not followed.
 */
export const FILE_BUILTINS = ["fs", "fs/promises"];
const FILE_WHY = "exercises don't read or write files: your code gets its inputs from the grader (and reading lib/'s source to load a copy of it is loading the reference)";

const real = (p: string): string => { try { return realpathSync(p); } catch { return p; } };
const entry = (root: string, p: string) => {
  const folder = p.endsWith("/");
  const abs = real(resolve(root, p));
  return { path: folder ? abs + sep : abs, folder };
};

/**
 * The files and folders an exercise's code may not load: its solution (`solution`, or
 * `lib/<chapter>/`), every grader and mutants folder (they hold references), and the
 * built copies of lib in `src/` and `dist/`; and the building blocks it may (`uses`).
 * @param exercise the exercise's id, chapter, stub file, solution and building blocks
 * @param root the tree that holds the stub (the repository, or a submission's private tree)
 * @param repo the repository (lib/, src/, dist/)
 * @example loadRule({ id: "1.2", chapter: "precision", file: "exercises/precision/round-bf16.ts" }, ROOT, ROOT).forbidden[0]
 *   // { path: "/…/lib/precision/", folder: true, why: "it holds the reference solution of exercise 1.2 (lib/precision/)" }
 */
export function loadRule(exercise: GuardedExercise, root: string, repo: string): LoadRule {
  const names = solutionNames(exercise).join(", ");
  const forbidden: Forbidden[] = [
    ...solutionPaths(exercise).map((p) => ({ ...entry(repo, p), why: `it holds the reference solution of exercise ${exercise.id} (${names}): write your own code` })),
    ...["src/", "dist/"].map((p) => ({ ...entry(repo, p), why: "src/ and dist/ hold the pages and copies of lib built for them; a building block is imported from lib/ itself" })),
  ];
  return {
    stub: real(resolve(root, exercise.file)),
    root: real(repo) + sep,
    tree: real(root) + sep,
    forbidden,
    allowed: (exercise.uses ?? []).map((p) => entry(repo, p.split("#")[0])),
  };
}

/** A grader or a mutants file: it holds a reference. */
const GRADER = /\.test\.[cm]?[jt]sx?$|[\\/]mutants[\\/]/;
const GRADER_WHY = "a grader or a mutants file holds a reference: write your own code";
const OUTSIDE_WHY = "an exercise runs in the grader's thread: child processes, workers, vm, module hooks and the inspector are not available to it";

/** The guard installed in this thread: the reasons of the loads it refused so far. */
export interface LoadGuard { refusals(): string[] }

/**
 * Installs the guard in this thread (a grading worker, once, before the stub is imported).
 * Graders and mutants files are refused too (`GRADER`), wherever they are.
 */
export function installLoadGuard(rule: LoadRule): LoadGuard {
  const { port1, port2 } = new MessageChannel();
  register("./load-guard-hook.mjs", import.meta.url, { data: { ...rule, port: port2, outside: OUTSIDE_BUILTINS, outsideWhy: OUTSIDE_WHY, files: FILE_BUILTINS, filesWhy: FILE_WHY, grader: GRADER.source, graderWhy: GRADER_WHY }, transferList: [port2 as unknown as MessagePort] });
  const student = new Set<string>([rule.stub]);
  const refused: string[] = [];
  const drain = () => {
    for (let m = receiveMessageOnPort(port1); m; m = receiveMessageOnPort(port1)) {
      const msg = m.message as { refused?: string; student?: string };
      if (msg.refused) refused.push(msg.refused);
      if (msg.student) student.add(msg.student);
    }
  };
  const isForbidden = (file: string): Forbidden | undefined => (GRADER.test(file) ? { path: file, folder: false, why: GRADER_WHY }
    : rule.forbidden.find((e) => (e.folder ? file.startsWith(e.path) || file + sep === e.path : file === e.path)));
  const shown = (f: string) => (f.startsWith(rule.tree) ? f.slice(rule.tree.length) : f.startsWith(rule.root) ? f.slice(rule.root.length) : f);
  const refuse = (what: string, from: string, why: string): never => {
    const message = `refused to load ${what} from ${shown(from)}: ${why} (solutions policy, exercises/README.md)`;
    refused.push(message);
    throw Object.assign(new Error(message), { code: "ERR_SOLUTIONS_POLICY" });
  };

  // require (createRequire, a .cjs helper): the same rule, in this thread.
  const M = Module as unknown as { _resolveFilename: (request: string, parent: { filename?: string } | undefined, ...rest: unknown[]) => string };
  const resolveFilename = M._resolveFilename;
  M._resolveFilename = function (request, parent, ...rest) {
    const filename = resolveFilename.call(this, request, parent, ...rest);
    drain();
    const from = parent?.filename ? real(parent.filename) : "";
    if (!from || !student.has(from)) return filename;
    const name = filename.replace(/^node:/, "");
    if (OUTSIDE_BUILTINS.includes(name)) refuse(`node:${name}`, from, OUTSIDE_WHY);
    if (FILE_BUILTINS.includes(name)) refuse(`node:${name}`, from, FILE_WHY);
    if (!filename.startsWith("/") && !/^[A-Za-z]:/.test(filename)) return filename;
    const file = real(filename);
    const bad = isForbidden(file);
    if (bad) refuse(shown(file), from, bad.why);
    if (!rule.allowed.some((e) => (e.folder ? file.startsWith(e.path) : file === e.path))) student.add(file);
    return filename;
  };
  // process.getBuiltinModule reaches builtins without an import.
  const proc = process as unknown as { getBuiltinModule?: (id: string) => unknown };
  const getBuiltin = proc.getBuiltinModule;
  if (getBuiltin) {
    proc.getBuiltinModule = (id: string) => {
      const name = String(id).replace(/^node:/, "");
      if (OUTSIDE_BUILTINS.includes(name)) refuse(`node:${name}`, "an exercise's code (process.getBuiltinModule)", OUTSIDE_WHY);
      if (FILE_BUILTINS.includes(name)) refuse(`node:${name}`, "an exercise's code (process.getBuiltinModule)", FILE_WHY);
      return getBuiltin.call(process, id);
    };
  }
  // process.binding("fs") is the file system without a module.
  const legacy = process as unknown as { binding?: (id: string) => unknown };
  const binding = legacy.binding;
  if (binding) legacy.binding = (id: string) => (/^fs/.test(String(id)) ? refuse(`process.binding(${JSON.stringify(id)})`, "an exercise's code", FILE_WHY) : binding.call(process, id));
  // No module hooks registered over the guard.
  (Module as unknown as { register: unknown }).register = () => refuse("module hooks", "an exercise's code (module.register)", OUTSIDE_WHY);
  syncBuiltinESMExports();
  return { refusals: () => { drain(); return [...new Set(refused)]; } };
}
