/** "Did you mean …?" for names typed on the command line. */

/**
 * The Levenshtein distance: the fewest single-character insertions, deletions
 * and substitutions that turn `a` into `b`.
 * @example editDistance("precison", "precision") // 1
 */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

/**
 * The candidate nearest to `word` (case-insensitive), if it is near enough to be a typo:
 * at most 2 edits, and at most a third of the longer name (a 3-letter name: 1 edit).
 * Ties go to the earlier candidate.
 * @example nearest("precison", ["precision", "memory"]) // "precision"
 * @example nearest("zro", ["zero", "watch"]) // "zero"
 * @example nearest("banana", ["precision", "memory"]) // undefined
 */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined, bestD = Infinity;
  for (const c of candidates) {
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestD) { best = c; bestD = d; }
  }
  if (best === undefined) return undefined;
  const limit = Math.min(2, Math.max(1, Math.floor(Math.max(word.length, best.length) / 3)));
  return bestD > 0 && bestD <= limit ? best : undefined;
}

/** " (did you mean "x"?)" or "". */
export function didYouMean(word: string, candidates: readonly string[], prefix = ""): string {
  const n = nearest(word, candidates);
  return n ? ` (did you mean "${prefix}${n}"?)` : "";
}
