/**
 * A fully connected layer y = x·W + b.
 */
import { createParam } from "./param.js";
import type { Rng } from "../random.js";
import { bytesPerElement } from "./precision.js";
import { addBias, addColumnSums, addInto, roundCompute } from "./ops.js";
import type { Layer } from "./types.js";

/**
 * A linear layer (as `nn.Linear`, but W stored (in, out) so that y = x·W + b).
 *
 * Forward: y = x W + b. Backward: dW += xᵀ dy, db += Σ_rows dy, dx = dy Wᵀ.
 *
 * @param name prefix of the parameter names ("<name>.W", "<name>.b")
 * @param inFeatures columns of x
 * @param outFeatures columns of y
 * @param rng seeded generator; W ~ N(0, 1/inFeatures), b = 0
 * @returns a Layer mapping (N, in) to (N, out); it saves x
 * @example
 * const lin = linear("head", 4, 3, mulberry32(0)); lin.flops(10); // 2·10·4·3 + 10·3 = 270
 * @see PyTorch torch.nn.Linear
 */
export function linear(name: string, inFeatures: number, outFeatures: number, rng: Rng): Layer {
  const W = createParam(`${name}.W`, [inFeatures, outFeatures], 1 / Math.sqrt(inFeatures), rng);
  const b = createParam(`${name}.b`, [outFeatures], 0, rng);
  const I = inFeatures, O = outFeatures;
  return {
    name, kind: "linear", params: [W, b], inFeatures: I, outFeatures: O,
    forward(x, ops) {
      const N = x.rows;
      const y = ops.matmul(x.data, W.data, { M: N, K: I, N: O }, ops.precision.accumulate); // (N, O)
      addBias(y, b.data, N, O, ops);
      return { y: { data: y, rows: N, cols: O }, saved: { x, extra: [], bytes: N * I * bytesPerElement(ops.precision.compute) } };
    },
    backward(saved, dy, ops) {
      const x = saved.x, N = x.rows, acc = ops.precision.accumulate;
      addInto(W.grad, ops.matmul(x.data, dy.data, { M: I, K: N, N: O, transA: true }, acc), ops); // xᵀ dy: (I, O)
      addColumnSums(b.grad, dy, ops);
      const dx = ops.matmul(dy.data, W.data, { M: N, K: O, N: I, transB: true }, acc); // dy Wᵀ: (N, I)
      return { data: roundCompute(dx, ops), rows: N, cols: I };
    },
    flops: (rows) => 2 * rows * I * O + rows * O,
    savedBytes: (rows, format) => rows * I * bytesPerElement(format),
  };
}
