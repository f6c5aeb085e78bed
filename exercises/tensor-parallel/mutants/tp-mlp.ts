import { matmul } from "../../../lib/nn/index.js";
import type { tpMlpForwardBackward, MlpShard, TpGroup } from "../tp-mlp.js";

type F = typeof tpMlpForwardBackward;
type Dims = { N: number; h: number; H: number };
interface Options { overwriteGrads?: boolean; biasBeforeReduce?: boolean; noBackwardReduce?: boolean; preActivationDerivative?: boolean; reduceHidden?: boolean }

/** A hand-written T-rank block with one mistake switched on. */
function block(o: Options): F {
  return (g: TpGroup, shards: MlpShard[], x: Float32Array, dy: Float32Array, { N, h, H }: Dims) => {
    const T = g.T;
    if (o.overwriteGrads) for (const s of shards) for (const a of [s.dW1, s.db1, s.dW2, s.db2]) a.fill(0); // dW = … instead of dW += …
    if (H % T !== 0) throw new RangeError(`H (${H}) must be divisible by T (${T})`);
    if (shards.length !== T) throw new RangeError(`shards must hold one shard per rank (T = ${T}), got ${shards.length}`);
    const c = H / T;
    let us = shards.map((s) => { const u = matmul(x, s.W1, { M: N, K: h, N: c }); for (let i = 0; i < N; i++) for (let j = 0; j < c; j++) u[i * c + j] += s.b1[j]; return u; });
    if (o.reduceHidden) us = g.allReduce(us).map((u) => u.map((v) => v / T)); // an extra (and wrong) collective between the layers
    const as = us.map((u) => u.map(Math.tanh));
    const parts = shards.map((s, r) => { const p = matmul(as[r], s.W2, { M: N, K: c, N: h }); if (o.biasBeforeReduce) for (let i = 0; i < N; i++) for (let j = 0; j < h; j++) p[i * h + j] += s.b2[j]; return p; });
    const z = g.allReduce(parts)[0];
    const y = z.map((v, i) => v + x[i] + (o.biasBeforeReduce ? 0 : shards[0].b2[i % h]));
    const dxParts = shards.map((s, r) => {
      const dW2 = matmul(as[r], dy, { M: c, K: N, N: h, transA: true });
      dW2.forEach((v, i) => (s.dW2[i] += v));
      for (let i = 0; i < N; i++) for (let j = 0; j < h; j++) s.db2[j] += dy[i * h + j];
      const du = matmul(dy, s.W2, { M: N, K: h, N: c, transB: true }).map((v, i) => v * (o.preActivationDerivative ? 1 - us[r][i] * us[r][i] : 1 - as[r][i] * as[r][i]));
      matmul(x, du, { M: h, K: N, N: c, transA: true }).forEach((v, i) => (s.dW1[i] += v));
      for (let i = 0; i < N; i++) for (let j = 0; j < c; j++) s.db1[j] += du[i * c + j];
      return matmul(du, s.W1, { M: N, K: c, N: h, transB: true });
    });
    const dxSum = o.noBackwardReduce ? dxParts[0] : g.allReduce(dxParts)[0];
    return { y, dx: dxSum.map((v, i) => v + dy[i]) };
  };
}

export const mutants = {
  "overwrites the shards' gradients instead of adding into them": { impl: block({ overwriteGrads: true }), caughtBy: ["gradients add into what the shards hold (two micro-batches after a previous step's)"] },
  "adds b2 on every rank before the all-reduce (the bias counted T times)": { impl: block({ biasBeforeReduce: true }), caughtBy: ["forward output equals one device", "trains to the same weights as one device (T = 2, 4)"] },
  "skips f's all-reduce in backward (dx is rank 0's partial gradient)": { impl: block({ noBackwardReduce: true }), caughtBy: ["input gradient and weight gradients equal one device", "collective log: one all-reduce of (N, h) forward, one backward", "trains to the same weights as one device (T = 2, 4)"] },
  "differentiates tanh at the pre-activation (1 − u² instead of 1 − tanh(u)²)": { impl: block({ preActivationDerivative: true }), caughtBy: ["input gradient and weight gradients equal one device", "random shapes and T", "trains to the same weights as one device (T = 2, 4)"] },
  "all-reduces the hidden activation between the two layers (and averages it)": { impl: block({ reduceHidden: true }), caughtBy: ["forward output equals one device", "collective log: one all-reduce of (N, h) forward, one backward"] },
} satisfies Record<string, { impl: F; caughtBy: string[] }>;
