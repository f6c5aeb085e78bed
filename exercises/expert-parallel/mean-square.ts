import { notImplemented } from "../harness/index.js";

/**
 * Exercise 14.1 — mean square (TODO: the chapter's first exercise). TODO: the contract, not the steps (exercises/README.md).
 *
 * What: the mean of the squares of `xs`, (x₀² + … + xₙ₋₁²) / n.
 * Errors: an empty array throws a RangeError whose message names `xs`.
 * Derived in the chapter's section #worked-example.
 *
 * @param xs the values (do not modify it)
 * @returns the mean square, a number
 * @throws {RangeError} `xs must not be empty`
 * @example meanSquare([3, 4]) // 12.5
 */
export function meanSquare(xs: readonly number[]): number {
  return notImplemented("14.1");
}
