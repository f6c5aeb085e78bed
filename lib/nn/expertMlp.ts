/**
 * One expert of a mixture-of-experts layer: the feed-forward block
 * e(x) = tanh(x·W1 + b1)·W2 + b2 on the rows routed to it, forward and backward.
 */
import { createParam } from "./param.js";
import type { Rng } from "../random.js";
import { addBias, addColumnSums, addInto, roundCompute } from "./ops.js";
import type { Ops, Param } from "./types.js";

/**
 * An expert's four parameters.
 * @see the sources of {@link createExpert}
 */
export interface Expert {
  /** (h, H) */
  W1: Param;
  /** (H) */
  b1: Param;
  /** (H, h) */
  W2: Param;
  /** (h) */
  b2: Param;
}

/**
 * An expert of width h and hidden width H, initialised as lib/nn's residual MLP
 * (W1 ~ N(0, 1/h), W2 ~ N(0, 1/(4H)), biases 0).
 * @param name e.g. "blocks.0.experts.3"
 * @param width h
 * @param hiddenDim H
 * @param rng seeded generator
 * @returns `{W1, b1, W2, b2}`
 * @example createExpert("e", 4, 8, mulberry32(0)).W1.shape // [4, 8]
 * @see Shazeer et al. 2017, *Outrageously Large Neural Networks* §2 (each expert a feed-forward network); lib/nn residualMlp (the same initialisation)
 */
export function createExpert(name: string, width: number, hiddenDim: number, rng: Rng): Expert {
  return {
    W1: createParam(`${name}.W1`, [width, hiddenDim], 1 / Math.sqrt(width), rng),
    b1: createParam(`${name}.b1`, [hiddenDim], 0, rng),
    W2: createParam(`${name}.W2`, [hiddenDim, width], 0.5 / Math.sqrt(hiddenDim), rng),
    b2: createParam(`${name}.b2`, [width], 0, rng),
  };
}

/**
 * Forward of an expert on n rows: a = tanh(x·W1 + b1), o = a·W2 + b2.
 * @param e the expert
 * @param x (n, h) the rows routed to it, n ≥ 0
 * @param rows n
 * @param ops precision and matmul
 * @returns a (n, H) and o (n, h), new arrays (empty when n = 0)
 * @throws {RangeError} `x must have rows·h = 8 elements, got 6`
 * @example expertForward(createExpert("e", 2, 3, mulberry32(0)), new Float32Array(0), 0, cpuOps()).o.length // 0
 * @see Vaswani et al. 2017 §3.3 (position-wise feed-forward network); lib/nn residualMlp (the same block without its residual)
 */
export function expertForward(e: Expert, x: Float32Array, rows: number, ops: Ops): { a: Float32Array; o: Float32Array } {
  const [h, H] = e.W1.shape, n = rows, acc = ops.precision.accumulate;
  if (x.length !== n * h) throw new RangeError(`x must have rows·h = ${n * h} elements, got ${x.length}`);
  if (n === 0) return { a: new Float32Array(0), o: new Float32Array(0) };
  const a = ops.matmul(x, e.W1.data, { M: n, K: h, N: H }, acc); // (n, H)
  addBias(a, e.b1.data, n, H, ops);
  for (let i = 0; i < a.length; i++) a[i] = Math.tanh(a[i]);
  roundCompute(a, ops);
  const o = ops.matmul(a, e.W2.data, { M: n, K: H, N: h }, acc); // (n, h)
  addBias(o, e.b2.data, n, h, ops);
  return { a, o };
}

/**
 * Backward of an expert: ADDS dW2 += aᵀ·dO, db2 += Σ dO, dW1 += xᵀ·du, db1 += Σ du
 * (du = dO·W2ᵀ ⊙ (1 − a²)) into the parameters' grads, and returns dx = du·W1ᵀ.
 * @param e the expert
 * @param x (n, h) its input rows
 * @param a (n, H) saved by the forward
 * @param dO (n, h) ∂L/∂o
 * @param rows n (0: nothing to do)
 * @param ops precision and matmul
 * @returns dx (n, h), a new array
 * @example expertBackward(e, x, a, dO, 0, cpuOps()) // Float32Array [] (no rows, no gradient)
 * @see the chain rule through y = tanh(u) (dy/du = 1 − y²); lib/nn residualMlp's backward (the same formulas)
 */
export function expertBackward(e: Expert, x: Float32Array, a: Float32Array, dO: Float32Array, rows: number, ops: Ops): Float32Array {
  const [h, H] = e.W1.shape, n = rows, acc = ops.precision.accumulate;
  if (n === 0) return new Float32Array(0);
  const dOAct = { data: dO, rows: n, cols: h };
  addInto(e.W2.grad, ops.matmul(a, dO, { M: H, K: n, N: h, transA: true }, acc), ops); // aᵀ dO: (H, h)
  addColumnSums(e.b2.grad, dOAct, ops);
  const du = ops.matmul(dO, e.W2.data, { M: n, K: h, N: H, transB: true }, acc); // dO W2ᵀ: (n, H)
  for (let i = 0; i < du.length; i++) du[i] *= 1 - a[i] * a[i];
  roundCompute(du, ops);
  addInto(e.W1.grad, ops.matmul(x, du, { M: h, K: n, N: H, transA: true }, acc), ops); // xᵀ du: (h, H)
  addColumnSums(e.b1.grad, { data: du, rows: n, cols: H }, ops);
  return roundCompute(ops.matmul(du, e.W1.data, { M: n, K: H, N: h, transB: true }, acc), ops); // du W1ᵀ: (n, h)
}
