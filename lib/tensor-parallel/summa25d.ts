import { DEFAULT_COST_MODEL, type CostModel } from "../collectives/index.js";
import { summa2d, type SummaResult } from "./summa2d.js";
import { divide } from "./shard.js";

/**
 * C = X·W on q × q × d simulated ranks, the forward matmul of Colossal-AI's
 * 2.5D tensor parallelism (Tesseract, Wang et al. 2021): X (M, K) is cut into
 * d row blocks, one per depth layer; each depth layer is a q × q grid that holds
 * all of W in q × q blocks and runs {@link summa2d} on its rows of X.
 * Communication: the d layers' SUMMA, (q−1)·(M·K + d·K·N) elements in total
 * (each layer broadcasts its own M/d rows of X and the whole W); memory per rank
 * (M·K/d + K·N + M·N/d)/q² plus the received blocks: the weights are 1/q² per rank
 * (replicated over the d layers), the activations 1/(d·q²), as Colossal-AI's
 * table states. Not simulated: the backward, where the d copies of W's gradient
 * are also summed over the depth.
 * @param X (M, K) row-major; @param W (K, N) row-major
 * @param q grid side; @param d depth (d = 1 is 2D SUMMA); q·d divides M, q divides K and N
 * @returns the product and the traffic counted from the World's event logs (summed over the layers; `timeS` is the slowest layer's, as they run at the same time)
 * @throws RangeError `M (6) must be divisible by T (4)` (T here is q·d); `d must be an integer >= 1, got 0`
 * @example summa25d(Float32Array.of(1, 2, 3, 4), Float32Array.of(5, 6, 7, 8), 2, 2, 2, 1, 2).C // [19, 22, 43, 50]
 * @see Wang et al. 2021, *2.5-dimensional distributed model training* (Tesseract, arXiv:2105.14500);
 *   Colossal-AI docs/source/en/features/2p5D_tensor_parallel.md and colossalai/legacy/nn/layer/parallel_2p5d/_operation.py (`Matmul_AB_2p5D`) at 4f9953be
 */
export function summa25d(X: Float32Array, W: Float32Array, M: number, K: number, N: number, q: number, d: number, cost: CostModel = DEFAULT_COST_MODEL): SummaResult {
  if (!Number.isInteger(d) || d < 1) throw new RangeError(`d must be an integer >= 1, got ${d}`);
  if (!Number.isInteger(q) || q < 1) throw new RangeError(`q must be an integer >= 1, got ${q}`);
  divide("M", M, q * d);
  if (X.length !== M * K) throw new RangeError(`X must have M·K = ${M * K} elements, got ${X.length}`);
  const rows = M / d, C = new Float32Array(M * N);
  let broadcasts = 0, bytes = 0, timeS = 0, elementsPerRank = 0;
  for (let k = 0; k < d; k++) {
    const r = summa2d(X.subarray(k * rows * K, (k + 1) * rows * K), W, rows, K, N, q, cost);
    C.set(r.C, k * rows * N);
    broadcasts += r.broadcasts; bytes += r.bytes; timeS = Math.max(timeS, r.timeS); elementsPerRank = r.elementsPerRank;
  }
  return { C, broadcasts, bytes, timeS, elementsPerRank };
}
