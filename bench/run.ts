/**
 * npm run bench [-- name …] — runs every bench/<name>.bench.ts (or the named
 * ones) in turn. Each prints its own figures with units; benchmarks measure,
 * tests never assert times.
 */
import { readdirSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import os from "node:os";

const dir = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(dir).filter((f) => f.endsWith(".bench.ts")).sort()
  .filter((f) => wanted.length === 0 || wanted.includes(f.replace(/\.bench\.ts$/, "")));
if (files.length === 0) {
  console.error(`no benchmark matches ${wanted.join(", ")}; available: ${readdirSync(dir).filter((f) => f.endsWith(".bench.ts")).map((f) => f.replace(/\.bench\.ts$/, "")).join(", ")}`);
  process.exit(2);
}
console.log(`Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB`);
for (const f of files) {
  console.log(`\n=== ${f.replace(/\.bench\.ts$/, "")} ===`);
  const t0 = performance.now();
  const mod = await import(pathToFileURL(`${dir}/${f}`).href);
  await mod.default();
  console.log(`(${((performance.now() - t0) / 1000).toFixed(1)} s)`);
}
