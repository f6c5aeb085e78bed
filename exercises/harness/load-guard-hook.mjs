// The solutions policy, enforced on what is loaded (registered by load-guard.ts in a
// grading worker, before the student's stub is imported). Every module reached from
// the stub, by any import (static, dynamic, computed, through a helper file, a
// package's own name or another chapter's lib folder), is "the student's" unless it
// is a building block the exercise names (`uses`): its own imports are then not
// followed. A module of the student's that would load the exercise's reference
// (its `solution` files or folders), a grader or a mutants file, a built copy of lib
// (src/, dist/), a way out of this thread (child processes, workers, vm, module
// hooks, the inspector) or the file system (fs: see FILE_BUILTINS in load-guard.ts)
// is refused: the import throws, and the worker is told
// through `port`, so that the exercise gets 0 even if the student catches the error.
import { realpathSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

/** @type {{ forbidden: {path: string, folder: boolean, why: string}[], allowed: {path: string, folder: boolean}[], root: string, port: MessagePort, student: Map<string, string | null> } | undefined} */
let state;

const real = (path) => { try { return realpathSync(path); } catch { return path; } };
const inside = (file, entry) => (entry.folder ? file === entry.path.slice(0, -1) || file.startsWith(entry.path) : file === entry.path);
const rel = (file) => (file.startsWith(state.tree) ? file.slice(state.tree.length) : file.startsWith(state.root) ? file.slice(state.root.length) : file);

/** Builtins a student's module may not load, graders and mutants files, and why (from load-guard.ts). */
let OUTSIDE, OUTSIDE_WHY, FILES, FILES_WHY, GRADER, GRADER_WHY;

/**
 * @param {{ forbidden: {path: string, folder: boolean, why: string}[], allowed: {path: string, folder: boolean}[], root: string, stub: string, port: MessagePort,
 *   outside: string[], outsideWhy: string, files: string[], filesWhy: string, grader: string, graderWhy: string }} data
 *   paths are real absolute paths; a folder's path ends with "/"
 */
export function initialize(data) {
  const stubFile = real(data.stub);
  OUTSIDE = new Set(data.outside);
  OUTSIDE_WHY = data.outsideWhy;
  FILES = new Set(data.files);
  FILES_WHY = data.filesWhy;
  GRADER = new RegExp(data.grader);
  GRADER_WHY = data.graderWhy;
  state = { ...data, stubFile, student: new Map([[pathToFileURL(stubFile).href, null]]) };
}

/** The chain of imports from the stub to `url`, e.g. "exercises/x/a.ts → exercises/x/helper.ts". */
function chain(url) {
  const out = [];
  for (let u = url; u; u = state.student.get(u)) out.unshift(u.startsWith("file:") ? rel(fileURLToPath(u)) : u);
  return out.join(" → ");
}

function refuse(parentURL, target, why) {
  const message = `refused to load ${target} from ${chain(parentURL)}: ${why} (solutions policy, exercises/README.md)`;
  state.port.postMessage({ refused: message });
  const err = new Error(message);
  err.code = "ERR_SOLUTIONS_POLICY";
  throw err;
}

export async function resolve(specifier, context, next) {
  if (!state) return next(specifier, context);
  if (!context.parentURL || !state.student.has(context.parentURL)) {
    const r = await next(specifier, context);
    // The stub itself, whoever imports it (the worker does): its URL as resolved.
    if (r.url.startsWith("file:") && real(fileURLToPath(r.url)) === state.stubFile) state.student.set(r.url, null);
    return r;
  }
  const builtin = specifier.replace(/^node:/, "");
  if (OUTSIDE.has(builtin)) refuse(context.parentURL, `node:${builtin}`, OUTSIDE_WHY);
  if (FILES.has(builtin)) refuse(context.parentURL, `node:${builtin}`, FILES_WHY);
  const r = await next(specifier, context);
  if (r.url.startsWith("node:")) {
    if (OUTSIDE.has(r.url.slice(5))) refuse(context.parentURL, r.url, OUTSIDE_WHY);
    if (FILES.has(r.url.slice(5))) refuse(context.parentURL, r.url, FILES_WHY);
    return r;
  }
  if (!r.url.startsWith("file:")) refuse(context.parentURL, r.url.slice(0, 60), "a module of an exercise is a file (no data: or remote modules)");
  const file = real(fileURLToPath(r.url));
  if (GRADER.test(file)) refuse(context.parentURL, rel(file), GRADER_WHY);
  const bad = state.forbidden.find((e) => inside(file, e));
  if (bad) refuse(context.parentURL, rel(file), bad.why);
  // A building block the exercise names is not followed; anything else is the student's too.
  if (!state.allowed.some((e) => inside(file, e))) {
    for (const u of [r.url, pathToFileURL(file).href]) if (!state.student.has(u)) state.student.set(u, context.parentURL);
    state.port.postMessage({ student: file });
  }
  return r;
}
