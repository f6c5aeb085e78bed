/**
 * Token embedding of a context window: each of the C token ids of a row is
 * replaced by its d-dimensional vector, and the C vectors are concatenated.
 */
import { createParam } from "./param.js";
import type { Rng } from "../random.js";
import type { Layer } from "./types.js";
import { roundCompute } from "./ops.js";

/**
 * An embedding layer (as `nn.Embedding` followed by a flatten).
 *
 * Forward: y[n, c·d + j] = W[x[n, c], j]. Backward: dW[x[n, c], j] += dy[n, c·d + j];
 * there is no dx (token ids are not differentiable).
 *
 * @param name prefix of the parameter name ("<name>.W")
 * @param vocabSize V, number of token ids
 * @param contextLength C, ids per row
 * @param embedDim d
 * @param rng seeded generator for W ~ N(0, 1)
 * @returns a Layer mapping (N, C) ids, stored as floats, to (N, C·d)
 * @throws {RangeError} from `forward`, on a token id outside [0, V) at flat index i of the (N, C) input:
 *   `batch.contexts[<i>] must be an integer token id in [0, <V>), got <id>`
 * @example
 * const emb = embedding("emb", 5, 2, 3, mulberry32(0)); // ids (N, 2) -> (N, 6)
 * @see PyTorch torch.nn.Embedding (weights initialised from N(0, 1))
 */
export function embedding(name: string, vocabSize: number, contextLength: number, embedDim: number, rng: Rng): Layer {
  const W = createParam(`${name}.W`, [vocabSize, embedDim], 1, rng);
  const C = contextLength, d = embedDim;
  return {
    name, kind: "embedding", params: [W], inFeatures: C, outFeatures: C * d,
    forward(x, ops) {
      const y = new Float32Array(x.rows * C * d);
      for (let n = 0; n < x.rows; n++) {
        for (let c = 0; c < C; c++) {
          const id = x.data[n * C + c]; // (N, C)
          if (!Number.isInteger(id) || id < 0 || id >= vocabSize) throw new RangeError(`batch.contexts[${n * C + c}] must be an integer token id in [0, ${vocabSize}), got ${id}`);
          for (let j = 0; j < d; j++) y[n * C * d + c * d + j] = W.data[id * d + j]; // (N, C, d)
        }
      }
      roundCompute(y, ops);
      return { y: { data: y, rows: x.rows, cols: C * d }, saved: { x, extra: [], bytes: x.rows * C * 4 } };
    },
    backward(saved, dy, ops) {
      const x = saved.x;
      const g = roundCompute(Float32Array.from(dy.data), ops); // (N, C, d), rounded to the compute format
      for (let n = 0; n < x.rows; n++) {
        for (let c = 0; c < C; c++) {
          const id = x.data[n * C + c];
          for (let j = 0; j < d; j++) W.grad[id * d + j] += g[n * C * d + c * d + j];
        }
      }
      return null;
    },
    flops: () => 0,
    savedBytes: (rows) => rows * C * 4,
  };
}
