/**
 * Histogram of gradient exponents log2|g|, against the ranges of fp16:
 * what underflows to zero, what becomes subnormal, what overflows.
 */

/**
 * fp16 thresholds (IEEE binary16): smallest subnormal 2^-24, smallest normal 2^-14, largest finite 65504.
 *
 * @example
 * FP16_LIMITS.maxFinite; // 65504
 * FP16_LIMITS.minSubnormal; // 5.960464477539063e-8 (2^-24)
 * @see IEEE 754-2008 binary16; Micikevicius et al. 2017, Mixed Precision Training (fp16 range, Figure 3)
 */
export const FP16_LIMITS = Object.freeze({ minSubnormal: 2 ** -24, minNormal: 2 ** -14, maxFinite: 65504 });

/** One bin: values with floor(log2|g|) = exponent. */
export interface ExponentBin {
  exponent: number;
  count: number;
  /** Where the bin falls in fp16 (after multiplying by the scale). */
  fp16: "zero" | "subnormal" | "normal" | "overflow";
}

/** Result of {@link gradExponentHistogram}. */
export interface ExponentHistogram {
  bins: ExponentBin[];
  /** Exact zeros (not in the bins). */
  zeros: number;
  /** Nonzero values that round to 0 in fp16 after scaling: |S·g| < 2^-25 (half the smallest subnormal; 2^-25 itself ties to 0). */
  underflow: number;
  /** Nonzero values in fp16's subnormal range after scaling: 2^-25 < |S·g| < 2^-14 (few significant bits left). */
  subnormal: number;
  /** Values that overflow fp16 after scaling: |S·g| ≥ 65520. */
  overflow: number;
  total: number;
}

/**
 * Counts gradient values by binary exponent floor(log2|S·g|), and how many of
 * them fp16 would flush to zero, keep as subnormals, or overflow.
 * @param values gradient values (fp32), any number of arrays
 * @param lossScale S (default 1): the histogram of S·g, as backward would produce
 * @returns {@link ExponentHistogram}; bins sorted by exponent
 * @throws {RangeError} `lossScale must be a positive finite number, got 0`
 * @example gradExponentHistogram([Float32Array.of(2 ** -30, 1)]).underflow // 1
 * @see Micikevicius et al. 2017, Figure 3 (activation gradients of Multibox SSD in fp32 training: 67% exactly zero, much of the rest below 2^-24)
 */
export function gradExponentHistogram(values: readonly Float32Array[], lossScale = 1): ExponentHistogram {
  if (!(lossScale > 0 && Number.isFinite(lossScale))) throw new RangeError(`lossScale must be a positive finite number, got ${lossScale}`);
  const counts = new Map<number, number>();
  let zeros = 0, underflow = 0, subnormal = 0, overflow = 0, total = 0;
  for (const arr of values) for (let i = 0; i < arr.length; i++) {
    const a = Math.abs(arr[i]! * lossScale);
    total++;
    if (a === 0) { zeros++; continue; }
    if (!Number.isFinite(a) || a >= 65520) overflow++;
    else if (a <= 2 ** -25) underflow++;
    else if (a < FP16_LIMITS.minNormal) subnormal++;
    const e = Number.isFinite(a) ? Math.floor(Math.log2(a)) : 1024;
    counts.set(e, (counts.get(e) ?? 0) + 1);
  }
  const bins = [...counts.entries()].sort((x, y) => x[0] - y[0]).map(([exponent, count]) => ({
    exponent,
    count,
    fp16: (exponent < -25 ? "zero" : exponent < -14 ? "subnormal" : exponent >= 16 ? "overflow" : "normal") as ExponentBin["fp16"],
  }));
  return { bins, zeros, underflow, subnormal, overflow, total };
}
