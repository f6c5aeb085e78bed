/**
 * A residual MLP block y = x + tanh(x·W1 + b1)·W2 + b2, the repeated "layer"
 * of the course model (what checkpointing segments).
 */
import { createParam } from "./param.js";
import type { Rng } from "../random.js";
import { bytesPerElement } from "./precision.js";
import { addBias, addColumnSums, addInto, roundCompute } from "./ops.js";
import type { Layer } from "./types.js";

/**
 * A residual block of width h with a tanh hidden layer of width `hiddenDim`.
 *
 * Forward: u = x W1 + b1, a = tanh(u), y = x + a W2 + b2.
 * Backward: dW2 += aᵀ dy, db2 += Σ dy, du = (dy W2ᵀ) ⊙ (1 − a²), dW1 += xᵀ du,
 * db1 += Σ du, dx = dy + du W1ᵀ.
 *
 * @param name prefix of the parameter names
 * @param width h, columns of x and y
 * @param hiddenDim columns of a
 * @param rng seeded generator; W1 ~ N(0, 1/h), W2 ~ N(0, 1/(4·hiddenDim)) so the residual stream grows slowly
 * @returns a Layer mapping (N, h) to (N, h); it saves x and a
 * @example
 * residualMlp("blocks.0", 8, 16, mulberry32(0)).savedBytes(10, "fp32"); // (10·8 + 10·16)·4 = 960
 * @see He et al. 2016, Deep Residual Learning (the identity shortcut)
 */
export function residualMlp(name: string, width: number, hiddenDim: number, rng: Rng): Layer {
  const h = width, H = hiddenDim;
  const W1 = createParam(`${name}.W1`, [h, H], 1 / Math.sqrt(h), rng);
  const b1 = createParam(`${name}.b1`, [H], 0, rng);
  const W2 = createParam(`${name}.W2`, [H, h], 0.5 / Math.sqrt(H), rng);
  const b2 = createParam(`${name}.b2`, [h], 0, rng);
  return {
    name, kind: "residual-mlp", params: [W1, b1, W2, b2], inFeatures: h, outFeatures: h,
    forward(x, ops) {
      const N = x.rows, acc = ops.precision.accumulate, fmt = ops.precision.compute;
      const a = ops.matmul(x.data, W1.data, { M: N, K: h, N: H }, acc); // (N, H)
      addBias(a, b1.data, N, H, ops);
      for (let i = 0; i < a.length; i++) a[i] = Math.tanh(a[i]);
      roundCompute(a, ops);
      const y = ops.matmul(a, W2.data, { M: N, K: H, N: h }, acc); // (N, h)
      for (let i = 0; i < y.length; i++) y[i] += x.data[i];
      addBias(y, b2.data, N, h, ops);
      return { y: { data: y, rows: N, cols: h }, saved: { x, extra: [a], bytes: N * (h + H) * bytesPerElement(fmt) } };
    },
    backward(saved, dy, ops) {
      const x = saved.x, [a] = saved.extra, N = x.rows, acc = ops.precision.accumulate, fmt = ops.precision.compute;
      addInto(W2.grad, ops.matmul(a, dy.data, { M: H, K: N, N: h, transA: true }, acc), ops); // aᵀ dy: (H, h)
      addColumnSums(b2.grad, dy, ops);
      const du = ops.matmul(dy.data, W2.data, { M: N, K: h, N: H, transB: true }, acc); // dy W2ᵀ: (N, H)
      for (let i = 0; i < du.length; i++) du[i] *= 1 - a[i] * a[i];
      roundCompute(du, ops);
      addInto(W1.grad, ops.matmul(x.data, du, { M: h, K: N, N: H, transA: true }, acc), ops); // xᵀ du: (h, H)
      addColumnSums(b1.grad, { data: du, rows: N, cols: H }, ops);
      const dx = ops.matmul(du, W1.data, { M: N, K: H, N: h, transB: true }, acc); // du W1ᵀ: (N, h)
      for (let i = 0; i < dx.length; i++) dx[i] += dy.data[i];
      return { data: roundCompute(dx, ops), rows: N, cols: h };
    },
    flops: (rows) => 2 * rows * h * H + 2 * rows * H * h + rows * (2 * H + 2 * h),
    savedBytes: (rows, format) => rows * (h + H) * bytesPerElement(format),
  };
}
