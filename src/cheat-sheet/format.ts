// Number formats and the entry shape of the cheat sheet (src/cheat-sheet.md.ts), run at build time.

/** One formula of the cheat sheet: what it is, the formula, an example computed by lib, and where a chapter derives it. */
export interface Formula {
  /** The chapter's slug (lib/chapters.ts). */
  slug: string;
  /** The id of the section of src/<slug>.md that derives it (test/cheat-sheet.test.ts checks it exists). */
  anchor: string;
  /** What it gives, in a few words. */
  name: string;
  /** The formula, as HTML (sub/sup). */
  formula: string;
  /** An example whose numbers lib computed just now, as HTML. */
  example?: string;
}

/** Bytes in decimal units, 3 significant digits: 31.4 GB. */
export function bytes(b: number): string {
  for (const [u, s] of [["TB", 1e12], ["GB", 1e9], ["MB", 1e6], ["kB", 1e3]] as const) if (Math.abs(b) >= s) return `${+(b / s).toPrecision(3)} ${u}`;
  return `${+b.toPrecision(3)} B`;
}

/** MiB with one decimal: 130.0 MiB. */
export const mib = (b: number): string => `${(b / 2 ** 20).toFixed(1)} MiB`;

/** An integer with thousands separators: 13,015,864,320. */
export const int = (n: number): string => Math.round(n).toLocaleString("en-US");

/** A fraction as a percentage with one decimal: 37.5 %. */
export const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;

/** Seconds in the unit that reads best: 10.4 ms, 1.68 s. */
export function time(s: number): string {
  if (s >= 1) return `${+s.toPrecision(3)} s`;
  if (s >= 1e-3) return `${+(s * 1e3).toPrecision(3)} ms`;
  return `${+(s * 1e6).toPrecision(3)} µs`;
}

/** A number with `digits` significant digits, in exponent notation (×10ⁿ) when it is very large or small. */
export function num(x: number, digits = 4): string {
  if (x === 0 || (Math.abs(x) >= 1e-3 && Math.abs(x) < 1e6)) return String(+x.toPrecision(digits));
  const [m, e] = x.toExponential(digits - 1).split("e");
  return `${+m}×10<sup>${Number(e)}</sup>`;
}
