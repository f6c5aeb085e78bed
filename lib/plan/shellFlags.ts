/**
 * The `--flag value` pairs of a launch script or a pasted command line, read
 * as a shell would expand them where that is safe: backslash continuations,
 * quotes, comments, and variables assigned literally in the same text.
 */

/** One flag as written, and its value after expansion. */
export interface ShellFlag {
  /** e.g. "--tensor-model-parallel-size" (an `=value` suffix removed). */
  flag: string;
  /** The value, or null for a flag followed by another flag (a switch). */
  value: string | null;
  /** The value as written, before expansion (e.g. "$TP"). */
  written: string | null;
  /** The names of variables the value uses that the text never assigns. */
  unresolved: string[];
}

/** Splits one line into words: quotes group, `$(…)` stays whole, a `#` at a word's start outside quotes starts a comment. */
function words(line: string): string[] {
  const out: string[] = [];
  let cur = "", quote: string | null = null, any = false, depth = 0;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) { if (ch === quote) quote = null; else cur += ch; continue; }
    // $( … ) and $(( … )) stay inside the word; a bare ( or ) delimits a bash array.
    if (ch === "(" && (depth > 0 || cur.endsWith("$"))) { depth++; cur += ch; continue; }
    if (ch === ")" && depth > 0) { depth--; cur += ch; continue; }
    if (ch === "'" || ch === '"') { quote = ch; any = true; continue; }
    if (ch === "#" && !any && cur === "") break;
    if (/\s/.test(ch)) { if (any || cur) out.push(cur); cur = ""; any = false; continue; }
    if (ch === "(" || ch === ")") { if (any || cur) out.push(cur); cur = ""; any = false; continue; }
    cur += ch;
  }
  if (any || cur) out.push(cur);
  return out;
}

/** Integer arithmetic of `$(( … ))`: + − × ÷ and parentheses over integers (variables already substituted). */
function arithmetic(expr: string): number | null {
  const tokens = expr.match(/\d+|[-+*/()]/g);
  if (!tokens || tokens.join("") !== expr.replace(/\s+/g, "")) return null;
  let i = 0;
  const atom = (): number => {
    const t = tokens[i++];
    if (t === "(") { const v = sum(); i++; return v; }
    if (t === "-") return -atom();
    return Number(t);
  };
  const product = (): number => { let v = atom(); while (tokens[i] === "*" || tokens[i] === "/") { const op = tokens[i++]; const r = atom(); v = op === "*" ? v * r : Math.trunc(v / r); } return v; };
  const sum = (): number => { let v = product(); while (tokens[i] === "+" || tokens[i] === "-") { const op = tokens[i++]; const r = product(); v = op === "+" ? v + r : v - r; } return v; };
  const v = sum();
  return i === tokens.length && Number.isFinite(v) ? v : null;
}

/**
 * Expands `$NAME`, `${NAME}`, `${NAME:-default}` and `$(( … ))` from the variables known so far.
 * @returns the expanded text and the names it could not resolve
 */
function expand(text: string, vars: Map<string, string>): { value: string; unresolved: string[] } {
  const unresolved: string[] = [];
  let value = text.replace(/\$\{(\w+)(?::-([^}]*))?\}|\$(\w+)/g, (_, a: string | undefined, dflt: string | undefined, b: string | undefined) => {
    const name = (a ?? b)!;
    if (vars.has(name)) return vars.get(name)!;
    if (dflt !== undefined) return dflt;
    unresolved.push(name);
    return `$${name}`;
  });
  value = value.replace(/\$\(\((.*?)\)\)/g, (whole, e: string) => {
    // Inside $(( )) bash reads bare names as variables.
    const names = e.match(/[A-Za-z_]\w*/g) ?? [];
    for (const n of names) if (!vars.has(n) && !unresolved.includes(n)) unresolved.push(n);
    const v = arithmetic(e.replace(/[A-Za-z_]\w*/g, (n) => vars.get(n) ?? n));
    if (v === null && names.every((n) => vars.has(n))) unresolved.push(whole);
    return v === null ? whole : String(v);
  });
  return { value, unresolved };
}

/**
 * Reads the flags of a shell text: joins backslash-newline continuations,
 * drops comments, records `NAME=value` and `export NAME=value` assignments
 * (in order, so a later line sees an earlier one) and expands them in the
 * flags' values; `$((…))` integer arithmetic is evaluated. Every token that
 * starts with `--` is a flag: `--flag=value`, `--flag value`, or a switch
 * when the next token is another flag or the line ends. Flags inside bash
 * arrays (`ARGS=( --num-layers 24 … )`) are read in place.
 *
 * @param text a script or a command line
 * @returns the flags in order (a flag given twice appears twice)
 * @throws nothing: unresolved variables are listed in each flag's `unresolved`
 * @example shellFlags("TP=2\ntorchrun pretrain_gpt.py \\\n  --tensor-model-parallel-size $TP --bf16")
 *   // [{flag: "--tensor-model-parallel-size", value: "2", written: "$TP", unresolved: []}, {flag: "--bf16", value: null, …}]
 * @see the POSIX shell, "Parameter Expansion" and "Arithmetic Expansion" (the subset read here)
 */
export function shellFlags(text: string): ShellFlag[] {
  const lines = text.replace(/\\\r?\n/g, " ").split(/\r?\n/);
  const vars = new Map<string, string>();
  const flags: ShellFlag[] = [];
  for (const line of lines) {
    const w = words(line);
    let start = 0;
    if (w[0] === "export") start = 1;
    const assign = /^([A-Za-z_]\w*)=(.*)$/.exec(w[start] ?? "");
    if (assign && w.length === start + 1) { vars.set(assign[1], expand(assign[2], vars).value); continue; }
    for (let i = 0; i < w.length; i++) {
      if (!w[i].startsWith("--") || w[i] === "--") continue;
      const eq = w[i].indexOf("=");
      const flag = eq > 0 ? w[i].slice(0, eq) : w[i];
      const written = eq > 0 ? w[i].slice(eq + 1) : i + 1 < w.length && !w[i + 1].startsWith("--") ? w[++i] : null;
      const ex = written === null ? { value: null, unresolved: [] } : expand(written, vars);
      flags.push({ flag, value: ex.value, written, unresolved: ex.unresolved });
    }
  }
  return flags;
}
