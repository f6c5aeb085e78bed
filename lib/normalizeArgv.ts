/**
 * Command-line arguments as the course's CLIs (`npm run plan`, `npm run estimate`) read them,
 * before `util.parseArgs` sees them.
 */

/**
 * Prepares argv for `util.parseArgs`: a negative number after a flag (`--gpus -1`) becomes
 * `--gpus=-1`, so that the flag's own range check answers instead of parseArgs' "argument is
 * ambiguous"; a flag given twice is an error, where parseArgs would silently keep the last.
 * @param argv the arguments, e.g. `["--gpus", "-1"]`
 * @returns a new array, e.g. `["--gpus=-1"]`
 * @throws Error `--top is given twice; give each option once`
 * @example normalizeArgv(["--gpus", "-8", "--seq", "4096"]) // ["--gpus=-8", "--seq", "4096"]
 * @see Node.js `util.parseArgs` docs (an option value that starts with "-" must be written `--opt=-x`)
 */
export function normalizeArgv(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = argv[i + 1];
    if (/^--[a-z-]+$/.test(a) && next !== undefined && /^-[\d.]/.test(next)) { out.push(`${a}=${next}`); i++; }
    else out.push(a);
  }
  const seen = new Set<string>();
  for (const a of out) {
    const name = a.startsWith("--") ? a.slice(2).split("=")[0] : undefined;
    if (name === undefined) continue;
    if (seen.has(name)) throw new Error(`--${name} is given twice; give each option once`);
    seen.add(name);
  }
  return out;
}
