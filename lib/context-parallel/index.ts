/**
 * Chapter 13, Context parallelism: the public API of lib/context-parallel (what the page and the graders import).
 */
/**
 * TODO: the chapter's first concept. An example export: the mean of the squares of `xs`,
 * (x₀² + … + xₙ₋₁²) / n, summed in order in float64.
 * @param xs the values (not modified)
 * @returns the mean square
 * @throws {RangeError} `xs must not be empty` when `xs` is empty
 * @example meanSquare([3, 4]) // 12.5
 * @see TODO: the primary source (paper, section, or file and commit) of the context-parallel chapter
 */
export function meanSquare(xs: readonly number[]): number {
  if (xs.length === 0) throw new RangeError("xs must not be empty");
  let sum = 0;
  for (const x of xs) sum += x * x;
  return sum / xs.length;
}
