// npm test                      → type check, lib tests and grader self-checks (vitest), site build
//                                  (with the post-build step) and the checks of the built pages
// npm test exercises [chapter]  → the student's scorecard (exercises/grade.ts)
// npm test <vitest filter …>    → only those vitest files
import { spawnSync } from "node:child_process";
import { buildSite } from "./browser.mjs";
import { checkBuild } from "./check-build.mjs";

const args = process.argv.slice(2);
const run = (cmd, argv) => {
  const r = spawnSync(cmd, argv, { stdio: "inherit" });
  return r.status ?? 1;
};

if (args[0] === "exercises") process.exit(run("npx", ["tsx", "exercises/grade.ts", ...args.slice(1)]));
if (args.length > 0) process.exit(run("npx", ["vitest", "run", ...args]));

const steps = [
  ["type check", () => run("npx", ["tsc", "--noEmit", "-p", "tsconfig.json"])],
  ["lib tests and grader self-checks", () => run("npx", ["vitest", "run"])],
  ["site build", () => { try { buildSite("dist"); return 0; } catch (e) { console.error(e.message); return 1; } }],
  ["built pages (lang, zoom, names, descriptions, favicon, compression, errata)", () => {
    const problems = checkBuild("dist");
    for (const p of problems) console.error(`  ✗ ${p}`);
    return problems.length ? 1 : 0;
  }],
];
for (const [name, step] of steps) {
  console.log(`\n▶ ${name}`);
  const t0 = Date.now();
  const code = step();
  console.log(`${code === 0 ? "✓" : "✗"} ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  if (code !== 0) process.exit(code);
}
