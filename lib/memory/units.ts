/**
 * Bytes in one GiB, 2^30 (DeepSpeed prints these and calls them "GB").
 * @example 26031728640 / GiB // 24.24…
 * @see DeepSpeed `estimate_zero2_model_states_mem_needs_all_live` output (divides by 2^30 and prints "GB"); IEC 80000-13 (the binary prefix gibi)
 */
export const GiB = 2 ** 30;

/**
 * Bytes as GiB with two decimals, e.g. for tables.
 * @param bytes a non-negative byte count
 * @returns e.g. "24.24"
 * @throws RangeError `bytes must be a finite number >= 0, got NaN`
 * @example formatGiB(26031728640) // "24.24"
 * @see {@link GiB}
 */
export function formatGiB(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) throw new RangeError(`bytes must be a finite number >= 0, got ${bytes}`);
  return (bytes / GiB).toFixed(2);
}
