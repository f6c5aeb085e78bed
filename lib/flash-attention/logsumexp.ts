/**
 * log Σᵢ exp(xᵢ), computed without overflow as m + log Σᵢ exp(xᵢ − m) with
 * m = max xᵢ.
 *
 * Conventions: an empty list or one whose entries are all −∞ (every key
 * masked) gives −∞ (the log of an empty sum, 0); any +∞ gives +∞; any NaN
 * gives NaN. Logits of ±1e4 are exact where the naive formula overflows
 * (exp(1e4) = ∞) or underflows (log 0 = −∞).
 * @param xs logits, any length
 * @returns log Σ exp(xs)
 * @throws TypeError `xs must be an array of numbers, got string`
 * @example logsumexp([1e4, 1e4]) // 10000.69314718056 (= 1e4 + ln 2)
 * @example logsumexp([-Infinity, -Infinity]) // -Infinity
 * @see Milakov & Gimelshein 2018, "Online normalizer calculation for softmax", §2 (safe softmax)
 */
export function logsumexp(xs: ArrayLike<number>): number {
  if (!xs || typeof xs !== "object" || typeof xs.length !== "number") throw new TypeError(`xs must be an array of numbers, got ${typeof xs}`);
  let m = -Infinity;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i];
    if (typeof x !== "number") throw new TypeError(`xs must be an array of numbers, got ${typeof x} at index ${i}`);
    if (Number.isNaN(x)) return NaN;
    if (x > m) m = x;
  }
  if (m === -Infinity || m === Infinity) return m;
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += Math.exp(xs[i] - m);
  return m + Math.log(s);
}
