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
  /** The if/elif/else branch it is written in ("1.0": first if, its first branch; "" outside any), conditions not evaluated. */
  branch: string;
}

/** One word of a command line: its text without the quotes, and whether any part of it was quoted. */
interface Word { text: string; quoted: boolean }

/**
 * Splits one logical line into words: quotes group (a quoted string may span lines), `$(…)` and
 * `$((…))` stay whole with their spaces, a bare ( or ) delimits a bash array, a `#` at a word's
 * start outside quotes starts a comment.
 */
function words(line: string): Word[] {
  const out: Word[] = [];
  let cur = "", quote: string | null = null, any = false, depth = 0;
  const push = () => { if (any || cur) out.push({ text: cur, quoted: any }); cur = ""; any = false; };
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) { if (ch === quote) quote = null; else cur += ch; continue; }
    if (ch === "(" && (depth > 0 || cur.endsWith("$"))) { depth++; cur += ch; continue; }
    if (ch === ")" && depth > 0) { depth--; cur += ch; continue; }
    if (ch === "'" || ch === '"') { quote = ch; any = true; continue; }
    if (ch === "#" && !any && cur === "") break;
    if (/\s/.test(ch) && depth === 0) { push(); continue; }
    if (ch === "(" || ch === ")") { push(); continue; }
    cur += ch;
  }
  push();
  return out;
}

/**
 * The logical lines of a text: backslash-newline continuations joined (a comment's trailing
 * backslash continues nothing, as in bash), comments dropped, and a newline inside quotes kept
 * inside its line (`ARGS="\n  --num-layers 32\n"` is one assignment).
 */
function logicalLines(text: string): string[] {
  // A backslash-newline joins lines, but not at the end of a comment: bash ends a comment at the newline.
  const src = text.replace(/\r/g, "");
  const lines: string[] = [];
  let cur = "", quote: string | null = null;
  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    if (ch === "\\" && src[i + 1] === "\n" && quote !== "'") { cur += " "; i++; continue; }
    if (quote) { if (ch === quote) quote = null; cur += ch; continue; }
    if (ch === "'" || ch === '"') { quote = ch; cur += ch; continue; }
    if (ch === "#" && (cur === "" || /[\s(]$/.test(cur))) { while (i + 1 < src.length && src[i + 1] !== "\n") i++; continue; }
    if (ch === "\n") { lines.push(cur); cur = ""; continue; }
    if (ch !== "\r") cur += ch;
  }
  lines.push(cur);
  return lines;
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
 * (in order, so a later line sees an earlier one; a quoted value may span
 * lines) and expands them on the command lines, where an unquoted expansion
 * is split at whitespace as bash splits it (`torchrun pretrain_gpt.py
 * $MODEL_ARGS`, with MODEL_ARGS="--num-layers 32 …"); `$((…))` integer
 * arithmetic is evaluated, spaces allowed. Every token that starts with `--`
 * is a flag: `--flag=value`, `--flag value`, or a switch when the next token
 * is another flag or the line ends. Flags inside bash arrays
 * (`ARGS=( --num-layers 24 "--vocab-size 128256" … )`) are read in place, a
 * quoted "--flag value" element as the two words the unquoted `${ARGS[@]}`
 * gives (Megatron-LM's examples/llama script writes its data flags so); the
 * quoted command of `bash -c "…"` is split as the inner shell splits it.
 *
 * @param text a script or a command line
 * @returns the flags in order (a flag given twice appears twice), each with the if/else branch it sits in
 * @throws nothing: unresolved variables are listed in each flag's `unresolved`
 * @example shellFlags("TP=2\ntorchrun pretrain_gpt.py \\\n  --tensor-model-parallel-size $TP --bf16")
 *   // [{flag: "--tensor-model-parallel-size", value: "2", written: "$TP", unresolved: []}, {flag: "--bf16", value: null, …}]
 * @example shellFlags('ARGS="--num-layers 24 \\\n --hidden-size 2048"\ntorchrun pretrain_gpt.py $ARGS').map((f) => f.value) // ["24", "2048"]
 * @see the POSIX shell, "Parameter Expansion", "Arithmetic Expansion" and "Field Splitting" (the subset read here);
 *   NVIDIA/Megatron-LM examples/llama/train_llama3_8b_h100_fp8.sh at d98e8a6 (quoted array elements expanded unquoted)
 */
export function shellFlags(text: string): ShellFlag[] {
  const vars = new Map<string, string>();
  const flags: ShellFlag[] = [];
  const ifs: { id: number; arm: number }[] = [];
  let ifCount = 0;
  for (const line of logicalLines(text)) {
    const w = words(line);
    const head = w[0]?.quoted ? "" : w[0]?.text;
    if (head === "if") ifs.push({ id: ++ifCount, arm: 0 });
    else if ((head === "elif" || head === "else") && ifs.length) ifs[ifs.length - 1].arm++;
    else if (head === "fi") ifs.pop();
    const branch = ifs.map((x) => `${x.id}.${x.arm}`).join("/");
    let start = 0;
    if (w[0]?.text === "export") start = 1;
    const assign = /^([A-Za-z_]\w*)=([\s\S]*)$/.exec(w[start]?.text ?? "");
    if (assign && w.length === start + 1) { vars.set(assign[1], expand(assign[2], vars).value); continue; }
    const tokens = w.flatMap((x, k) => argv(x, vars, k > 0 && w[k - 1].text === "-c" && !w[k - 1].quoted));
    for (let i = 0; i < tokens.length; i++) {
      const tok = tokens[i];
      if (!tok.value.startsWith("--") || tok.value === "--") continue;
      const eq = tok.value.indexOf("=");
      const flag = eq > 0 ? tok.value.slice(0, eq) : tok.value;
      const next = eq > 0 ? null : i + 1 < tokens.length && !tokens[i + 1].value.startsWith("--") ? tokens[++i] : null;
      if (eq > 0) {
        const written = tok.written.slice(tok.written.indexOf("=") + 1);
        flags.push({ flag, value: tok.value.slice(eq + 1), written: written || tok.value.slice(eq + 1), unresolved: tok.unresolved, branch });
      } else flags.push({ flag, value: next ? next.value : null, written: next ? next.written : null, unresolved: next ? next.unresolved : [], branch });
    }
  }
  return flags;
}

/**
 * What one word becomes on a command line: its variables expanded and, as bash splits an
 * unquoted expansion, split at whitespace (`$MODEL_ARGS` holding "--num-layers 32 …" gives its
 * flags). A quoted word that reads "--flag value" is split too: it is an element of a bash array
 * (`ARGS=( "--vocab-size 128256" )`), which the launch expands unquoted (`${ARGS[@]}`). The word after
 * `-c` (`srun … bash -c "$LAUNCHER $CMD"`, BigScience's SLURM scripts) is a command line the inner shell splits.
 */
function argv(word: Word, vars: Map<string, string>, command = false): { value: string; written: string; unresolved: string[] }[] {
  const ex = expand(word.text, vars);
  const split = command || (word.quoted ? /^--\S+\s/.test(ex.value) : ex.value !== word.text && /\s/.test(ex.value) && !ex.value.includes("$(("));
  if (!split) return [{ value: ex.value, written: word.text, unresolved: ex.unresolved }];
  return ex.value.split(/\s+/).filter(Boolean).map((piece) => ({
    // A name left unexpanded in a piece is unset, also one that came from inside an expanded variable ($SLURM_NNODES in $LAUNCHER).
    value: piece, written: piece, unresolved: [...piece.matchAll(/\$\{?(\w+)/g)].map((m) => m[1]).filter((n) => !vars.has(n)),
  }));
}
