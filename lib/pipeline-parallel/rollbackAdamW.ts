/**
 * Qi et al.'s in-place rollback of an AdamW step (Appendix C, Algorithm 1), on lib/nn's AdamW.
 */
import type { AdamW } from "../nn/index.js";

/**
 * Undoes the last `opt.step()` in place from the gradients it used (still in each `param.grad`):
 * the inverse of each line of the step, in reverse order, with the same float32 rounding as the
 * step. With t the step being undone, β-corrections and the denominator are those of step t:
 *   θ ← (θ + lr/(1 − β1^t) · m / (√v/√(1 − β2^t) + ε)) / (1 − lr·λ)
 *   m ← (m − (1 − β1)·g) / β1,   v ← (v − (1 − β2)·g²) / β2,   t ← t − 1
 * Exact in real arithmetic; in float32 each line rounds again, so θ, m and v come back within a
 * few units in the last place, not bit for bit (sail-sg's runtime copies the parameters first when
 * `--enable-exactly-numeric-match` is set). No memory beyond the optimizer's own.
 * @param opt an AdamW that has taken at least one step since its gradients were last changed
 * @returns nothing; opt's parameters, moments and step count are restored
 * @throws {RangeError} `rollbackAdamW needs a step to undo (stepCount is 0)`; `rollbackAdamW cannot undo a step with beta1 = 0 or beta2 = 0 (the moments cannot be recovered)`; `rollbackAdamW cannot undo weight decay lr·weightDecay = 1`
 * @example const opt = new AdamW(params); opt.step(); rollbackAdamW(opt); opt.stepCount // 0, params back within float32 rounding
 * @see Qi et al. 2023, Appendix C, Algorithm 1; sail-sg/zero-bubble-pipeline-parallelism at 39f2c18, megatron/core/optimizer/zbpp_optimizer_helper.py (`rollback_adamw`)
 */
export function rollbackAdamW(opt: AdamW): void {
  const t = opt.stepCount, [b1, b2] = opt.betas, f = Math.fround;
  if (t < 1) throw new RangeError(`rollbackAdamW needs a step to undo (stepCount is ${t})`);
  if (b1 === 0 || b2 === 0) throw new RangeError("rollbackAdamW cannot undo a step with beta1 = 0 or beta2 = 0 (the moments cannot be recovered)");
  const decay = f(1 - opt.lr * opt.weightDecay);
  if (decay === 0) throw new RangeError("rollbackAdamW cannot undo weight decay lr·weightDecay = 1");
  const stepSize = opt.lr / (1 - b1 ** t), bc2Sqrt = Math.sqrt(1 - b2 ** t);
  opt.params.forEach((p, j) => {
    const m = opt.expAvg[j], v = opt.expAvgSq[j], x = p.data, g = p.grad;
    for (let i = 0; i < x.length; i++) {
      const denom = f(f(f(Math.sqrt(v[i])) / bc2Sqrt) + opt.eps);
      x[i] = f(f(x[i] + f(stepSize * f(m[i] / denom))) / decay);
      m[i] = f(f(m[i] - f((1 - b1) * g[i])) / b1);
      v[i] = f(f(v[i] - f((1 - b2) * f(g[i] * g[i]))) / b2);
    }
  });
  opt.stepCount = t - 1;
}
