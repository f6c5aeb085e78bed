/**
 * The solutions policy: the references stay readable in `lib/`, and a stub
 * that imports one (an editor's auto-import is enough) is refused by the
 * grader with a one-line reason and 0 points for that exercise. Node only.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, relative, resolve, sep } from "node:path";
import type { AnyFunction, Exercise } from "./define.js";

/**
 * The repository paths (files or folders, folders ending in "/") that hold an
 * exercise's solution: its `solution` entries without their `#function` part,
 * or the chapter's reference folder `lib/<chapter>/`.
 * @example solutionPaths({ chapter: "precision" }) // ["lib/precision/"]
 */
export function solutionPaths(exercise: Pick<Exercise<AnyFunction>, "chapter" | "solution">): string[] {
  const entries = exercise.solution?.length ? exercise.solution : [`lib/${exercise.chapter}/`];
  return [...new Set(entries.map((s) => s.split("#")[0]))];
}

/**
 * What a student must not read before solving, for the page box and the README:
 * e.g. `round` in lib/precision/round.ts, or the folder lib/precision/.
 * @example solutionNames({ chapter: "precision", solution: ["lib/precision/round.ts#round"] }) // ["round (lib/precision/round.ts)"]
 */
export function solutionNames(exercise: Pick<Exercise<AnyFunction>, "chapter" | "solution">): string[] {
  const entries = exercise.solution?.length ? exercise.solution : [`lib/${exercise.chapter}/`];
  return entries.map((s) => {
    const [path, fn] = s.split("#");
    return fn ? `${fn} (${path})` : path;
  });
}

/**
 * The module specifiers that a module's code imports at run time: static
 * `import … from`, `export … from`, side-effect imports, `import("…")` and
 * `require("…")` with a literal path. Type-only imports and comments are
 * ignored (esbuild strips them first, as when the stub runs).
 */
export async function runtimeImports(source: string): Promise<string[]> {
  const { transform } = await import("esbuild");
  const { code } = await transform(source, { loader: "ts", format: "esm", target: "es2022" });
  const out = new Set<string>();
  const patterns = [
    /(?:^|[;\s}])(?:import|export)\s*(?:[\w*${},\s]+?\s*from\s*)?["']([^"']+)["']/g,
    /\bimport\s*\(\s*["'`]([^"'`]+)["'`]\s*\)/g,
    /\brequire\s*\(\s*["'`]([^"'`]+)["'`]\s*\)/g,
    // any other string that names a path into a lib/ folder: createRequire(…)("../../lib/x.ts"), a path kept in a variable…
    /["'`]((?:\.{1,2}\/|\/|file:|llm-training-course\/)[^"'`]*\blib\/[^"'`]*)["'`]/g,
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) out.add(m[1]);
  return [...out];
}

/**
 * The imports of a stub that reach into its exercise's solution (see
 * {@link solutionPaths}), as written in the stub; [] when it is clean.
 * Only relative and absolute paths are resolved (packages are not solutions).
 * @param stubFile absolute path of the stub
 * @param source the stub's text
 * @param root the repository root
 */
export async function solutionImports(exercise: Pick<Exercise<AnyFunction>, "chapter" | "solution">, stubFile: string, source: string, root: string): Promise<string[]> {
  const forbidden = solutionPaths(exercise).map((p) => resolve(root, p));
  const inside = (file: string, p: string) => {
    const noExt = (f: string) => f.replace(/\.(?:[cm]?[jt]s|tsx?)$/, "");
    if (!/\.[cm]?[jt]sx?$/.test(p)) { // a folder: anything under it
      const rel = relative(p, file);
      return rel === "" || (!rel.startsWith("..") && !rel.startsWith(sep));
    }
    return noExt(file) === noExt(p);
  };
  const specs = await runtimeImports(source);
  // src/lib is a link to lib/, and the package's own name reaches lib/ too (the path hidden graders use).
  const throughLinks = (target: string) => {
    const viaSrc = resolve(root, "src", "lib");
    return target === viaSrc || target.startsWith(viaSrc + sep) ? resolve(root, "lib") + target.slice(viaSrc.length) : target;
  };
  // src/bundles/<page>.ts re-exports lib/ code for a page, and the .js made from it holds that code:
  // it reaches each lib/ folder it re-exports from (a file at lib/'s top level: that file).
  const bundles = resolve(root, "src", "bundles");
  const viaBundle = (target: string): string[] | undefined => {
    if (!target.startsWith(bundles + sep)) return undefined;
    const entry = resolve(bundles, basename(target).replace(/\.[cm]?[jt]sx?$/, "") + ".ts");
    const text = existsSync(entry) ? readFileSync(entry, "utf8") : "";
    return [...text.matchAll(/\bfrom\s*"(\.[^"]+)"/g)].map((m) => resolve(bundles, m[1])).map((f) => (dirname(f) === resolve(root, "lib") ? f : dirname(f)));
  };
  return specs.filter((spec) => {
    let target: string;
    if (spec.startsWith("llm-training-course/")) target = resolve(root, spec.slice("llm-training-course/".length));
    else if (spec.startsWith("file:")) target = new URL(spec).pathname;
    else if (spec.startsWith(".") || spec.startsWith("/")) target = resolve(dirname(stubFile), spec);
    else return false; // other packages are not solutions
    const reached = viaBundle(target);
    if (reached) return forbidden.some((p) => reached.some((r) => inside(p, r) || inside(r, p)));
    return forbidden.some((p) => inside(throughLinks(target), p));
  });
}

/** The one-line reason the scorecard shows for a refused stub. */
export function refusalMessage(file: string, imports: string[], exercise: Pick<Exercise<AnyFunction>, "chapter" | "solution">): string {
  return `${file} imports ${imports.map((s) => `"${s}"`).join(", ")}, the reference solution (${solutionPaths(exercise).join(", ")}): write your own code (solutions policy, exercises/README.md)`;
}
