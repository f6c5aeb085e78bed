/**
 * npm run bench [-- name …] — runs every bench/<name>.bench.ts (or the named
 * ones) in turn, each in a child process, and shows which one is running and
 * for how long: a status line updated every second on a terminal, a line
 * every 15 s otherwise. Each benchmark prints its own figures with units;
 * benchmarks measure, tests never assert times. A benchmark may report what
 * it is doing with `progress("matmul 256×256")` (bench/progress.ts), shown in
 * the status line.
 */
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { spawn } from "node:child_process";
import os from "node:os";
import { didYouMean } from "../lib/suggest.js";

const dir = dirname(fileURLToPath(import.meta.url));
const me = fileURLToPath(import.meta.url);
const available = readdirSync(dir).filter((f) => f.endsWith(".bench.ts")).sort().map((f) => f.replace(/\.bench\.ts$/, ""));

/** Seconds, e.g. "7.2 s" or "2 min 05 s". */
export function elapsed(ms: number): string {
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  return `${Math.floor(s / 60)} min ${String(Math.floor(s % 60)).padStart(2, "0")} s`;
}

if (process.argv[2] === "--child") {
  // One benchmark, in this child process.
  const mod = await import(pathToFileURL(join(dir, `${process.argv[3]}.bench.ts`)).href);
  await mod.default();
  process.exit(0);
}

const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !available.includes(w));
if (unknown.length > 0 || available.length === 0) {
  console.error(`no benchmark named ${unknown.map((u) => `"${u}"${didYouMean(u, available)}`).join(", ")}; available: ${available.join(", ")}`);
  process.exit(2);
}
const names = wanted.length > 0 ? available.filter((n) => wanted.includes(n)) : available;

const tty = process.stdout.isTTY === true;
let status = "";
const clearStatus = () => { if (tty && status) { process.stdout.write("\r\x1b[2K"); status = ""; } };
const showStatus = (text: string) => { if (tty) { process.stdout.write(`\r\x1b[2K${text}`); status = text; } };

/** Runs one benchmark in a child process; resolves with its exit code. */
function runOne(name: string, index: number): Promise<number> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    let doing = "";
    let lastLine = t0;
    const child = spawn(process.execPath, [...process.execArgv, me, "--child", name], { stdio: ["ignore", "pipe", "inherit", "ipc"] });
    const label = () => `▶ ${name} (${index + 1}/${names.length})${doing ? ` · ${doing}` : ""} · ${elapsed(performance.now() - t0)}`;
    const tick = setInterval(() => {
      if (tty) showStatus(label());
      else if (performance.now() - lastLine >= 15_000) { console.log(`… ${label().slice(2)}, still running`); lastLine = performance.now(); }
    }, 1000);
    let pending = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      if (lines.length === 0) return;
      clearStatus();
      process.stdout.write(lines.map((l) => `${l}\n`).join(""));
      lastLine = performance.now();
      if (tty) showStatus(label());
    });
    child.on("message", (m: { progress?: string }) => { if (typeof m?.progress === "string") doing = m.progress; });
    child.on("exit", (code, signal) => {
      clearInterval(tick);
      clearStatus();
      if (pending) process.stdout.write(`${pending}\n`);
      console.log(`(${name}: ${elapsed(performance.now() - t0)}${code === 0 ? "" : `, failed: ${signal ?? `exit code ${code}`}`})`);
      resolve(code ?? 1);
    });
  });
}

console.log(`Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB`);
console.log(`${names.length} benchmark${names.length === 1 ? "" : "s"}: ${names.join(", ")}`);
const tAll = performance.now();
let failed = 0;
for (const [i, name] of names.entries()) {
  console.log(`\n=== ${name} (${i + 1}/${names.length}) ===`);
  if ((await runOne(name, i)) !== 0) failed++;
}
console.log(`\n${names.length - failed}/${names.length} benchmarks ran in ${elapsed(performance.now() - tAll)}`);
process.exit(failed > 0 ? 1 : 0);
