/**
 * Writes the autograder zip that Gradescope expects ("Autograder" → "Upload
 * your autograder file"): setup.sh and run_autograder at its root
 * (scripts/gradescope/), the course's package.json and lock file, lib/ and
 * exercises/ (stubs, graders, harness), and a course's hidden graders as
 * hidden/ when given.
 *
 *   npm run package:gradescope -- [chapter|id …] [--graders DIR] [--hidden-visibility V] [--out FILE]
 *
 * The chapters or ids given are the ones the assignment grades (default: all).
 * Default output: autograder.zip in the repository. Exit 2 on a usage error.
 */
import { parseArgs } from "node:util";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import JSZip from "jszip";
import { CHAPTERS } from "../lib/chapters.js";
import { findGraderFiles, loadGraders, ROOT } from "../exercises/harness/discover.js";
import { VISIBILITIES } from "../exercises/harness/scorecard.js";

/** Files and folders of the repository that grading needs. */
const INCLUDE = ["package.json", "package-lock.json", "tsconfig.json", "lib", "exercises", "scripts/gradescope"];
const FIXED_DATE = new Date("2020-01-01T00:00:00Z"); // the same zip for the same files

function walk(p: string): string[] {
  if (!statSync(p).isDirectory()) return [p];
  return readdirSync(p).sort().flatMap((n) => (n === "node_modules" || n.startsWith(".") || n.endsWith(".tmp.ts") ? [] : walk(join(p, n))));
}

/**
 * Builds the zip.
 * @param o.filter chapters or exercise ids the assignment grades ([] = all)
 * @param o.graders a folder of hidden graders, packed as hidden/
 * @returns the zip's bytes and the names of its files
 */
export async function packageGradescope(o: { filter?: string[]; graders?: string; hiddenVisibility?: string } = {}): Promise<{ zip: Uint8Array; names: string[] }> {
  const zip = new JSZip();
  const add = (name: string, data: Buffer | string, mode = 0o644) =>
    zip.file(name, data, { date: FIXED_DATE, unixPermissions: 0o100000 | mode, createFolders: false }); // a regular file, with its mode
  for (const top of INCLUDE) {
    for (const f of walk(join(ROOT, top))) add(relative(ROOT, f).split(sep).join("/"), readFileSync(f));
  }
  const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
  const runner = readFileSync(join(ROOT, "scripts/gradescope/run_autograder"), "utf8")
    .replace("__FILTER__", (o.filter ?? []).map(quote).join(" "))
    .replace("__HIDDEN_VISIBILITY__", quote(o.hiddenVisibility ?? "after_published"));
  add("run_autograder", runner, 0o755);
  add("setup.sh", readFileSync(join(ROOT, "scripts/gradescope/setup.sh")), 0o755);
  if (o.graders) {
    const dir = resolve(o.graders);
    for (const f of findGraderFiles(dir)) add(`hidden/${relative(dir, f).split(sep).join("/")}`, readFileSync(f));
  }
  const bytes = await zip.generateAsync({ type: "uint8array", platform: "UNIX", compression: "DEFLATE" });
  return { zip: bytes, names: Object.keys(zip.files).sort() };
}

async function main(argv: string[]): Promise<number> {
  let values, positionals;
  try {
    ({ values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: {
      graders: { type: "string" }, out: { type: "string", default: join(ROOT, "autograder.zip") },
      "hidden-visibility": { type: "string", default: "after_published" },
    } }));
  } catch (err) {
    console.error(`${(err as Error).message}\nusage: npm run package:gradescope -- [chapter|id …] [--graders DIR] [--hidden-visibility V] [--out FILE]`);
    return 2;
  }
  const loaded = await loadGraders(values.graders ? [values.graders] : []);
  const names = [...CHAPTERS.map((c) => c.slug), ...CHAPTERS.map((c) => String(c.number)), ...loaded.map((g) => g.exercise.id)];
  const unknown = positionals.filter((p) => !names.includes(p));
  if (unknown.length) { console.error(`unknown chapter or exercise: ${unknown.join(", ")}`); return 2; }
  if (!VISIBILITIES.includes(values["hidden-visibility"] as never)) { console.error(`--hidden-visibility must be one of ${VISIBILITIES.join(", ")}`); return 2; }
  if (values.graders && !existsSync(values.graders)) { console.error(`--graders: no folder at ${values.graders}`); return 2; }
  const { zip, names: files } = await packageGradescope({ filter: positionals, graders: values.graders, hiddenVisibility: values["hidden-visibility"] });
  writeFileSync(values.out!, zip);
  const hidden = files.filter((f) => f.startsWith("hidden/")).length;
  console.log(`wrote ${values.out} (${files.length} files, ${(zip.length / 1024).toFixed(0)} KiB${hidden ? `, ${hidden} hidden grader${hidden === 1 ? "" : "s"}` : ""}; grades ${positionals.length ? positionals.join(", ") : "every chapter"})`);
  console.log("Upload it in Gradescope: Assignment → Configure Autograder → Zip file upload, base image Ubuntu.");
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(ROOT, "scripts/package-gradescope.ts")) process.exit(await main(process.argv.slice(2)));
