/**
 * Segmentations of a stack of n layers: which consecutive layers form a
 * checkpoint segment.
 */

/**
 * Validates a segmentation: positive integer lengths summing to n.
 *
 * @param numLayers n, an integer >= 1
 * @param segments segment lengths in layer order
 * @returns `segments`
 * @throws {RangeError} `numLayers must be an integer >= 1, got 0`; `segments must be positive integers summing to numLayers = 5, got [2, 2]`
 * @example checkSegments(4, [2, 2]) // [2, 2]
 * @see `torch.utils.checkpoint.checkpoint_sequential` docs (segments of a sequential model)
 */
export function checkSegments(numLayers: number, segments: readonly number[]): readonly number[] {
  if (!Number.isInteger(numLayers) || numLayers < 1) throw new RangeError(`numLayers must be an integer >= 1, got ${numLayers}`);
  if (!Array.isArray(segments) || segments.length === 0 || segments.some((s) => !Number.isInteger(s) || s < 1) || segments.reduce((a, b) => a + b, 0) !== numLayers) {
    throw new RangeError(`segments must be positive integers summing to numLayers = ${numLayers}, got [${Array.isArray(segments) ? segments.join(", ") : String(segments)}]`);
  }
  return segments;
}

/**
 * Every segmentation of n layers (the 2^(n−1) compositions of n), fewest segments first;
 * among equal counts, the longer first segment first (then in order of the cut bit mask).
 *
 * @param numLayers n, an integer in [1, 20]
 * @returns the compositions, e.g. for n = 3: [3], [2, 1], [1, 2], [1, 1, 1]
 * @throws {RangeError} `numLayers must be an integer in [1, 20], got 21`
 * @example
 * allSegmentations(3); // [[3], [2, 1], [1, 2], [1, 1, 1]]
 * @see Stanley, *Enumerative Combinatorics* vol. 1, §1.2 (the 2^(n−1) compositions of n); Chen et al. 2016, §4 (segmenting a chain for checkpointing)
 */
export function allSegmentations(numLayers: number): number[][] {
  if (!Number.isInteger(numLayers) || numLayers < 1 || numLayers > 20) throw new RangeError(`numLayers must be an integer in [1, 20], got ${numLayers}`);
  const out: number[][] = [];
  for (let mask = 0; mask < 2 ** (numLayers - 1); mask++) {
    const segs: number[] = [];
    let len = 1;
    for (let cut = 0; cut < numLayers - 1; cut++) {
      if (mask & (1 << (numLayers - 2 - cut))) { segs.push(len); len = 1; } else len++;
    }
    segs.push(len);
    out.push(segs);
  }
  return out.sort((a, b) => a.length - b.length || b[0] - a[0]);
}

/**
 * Chen et al.'s choice: about √n segments of about √n layers each, so that
 * stored checkpoints (≈ n/k) and the largest segment (≈ k) balance.
 *
 * @param numLayers n, an integer >= 1
 * @returns k = round(√n) segments whose lengths differ by at most 1 (longer ones first)
 * @throws {RangeError} `numLayers must be an integer >= 1, got 0`
 * @example
 * sqrtSegments(16); // [4, 4, 4, 4]
 * sqrtSegments(10); // [4, 3, 3]
 * @see Chen et al. 2016, Training Deep Nets with Sublinear Memory Cost, §4.1 (O(√n) memory, one extra forward)
 */
export function sqrtSegments(numLayers: number): number[] {
  if (!Number.isInteger(numLayers) || numLayers < 1) throw new RangeError(`numLayers must be an integer >= 1, got ${numLayers}`);
  const k = Math.max(1, Math.round(Math.sqrt(numLayers)));
  const base = Math.floor(numLayers / k), extra = numLayers % k;
  return Array.from({ length: k }, (_, i) => base + (i < extra ? 1 : 0));
}
