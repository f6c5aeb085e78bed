import type { Mutant } from "../../harness/index.js";
import type { largestHostModel, HostModelSetup } from "../largest-host-model.js";

type F = typeof largestHostModel;
interface Options { divide?: boolean; noFactor?: boolean; ignoreInit?: boolean; noNodes?: boolean; noCheck?: boolean; estimatorName?: boolean }

/** Bytes per parameter, as the mutants read the page. */
function perParam(s: HostModelSetup, o: Options): number {
  const n = s.gpusPerNode, g = o.noNodes ? 1 : 1 / s.numNodes, N = s.gpusPerNode * s.numNodes;
  if (s.stage === 2) return Math.max(4 * N, 16);
  const c = s.offloadParams ? 18 : 16;
  return (s.zeroInit ?? true) || o.ignoreInit ? c * g : Math.max(4 * n, c * g);
}

const make = (o: Options = {}): F => (h, s) => {
  if (!o.noCheck) {
    if (!Number.isSafeInteger(h) || h < 0) throw new RangeError(`hostBytes must be a safe integer >= 0, got ${h}`);
    if (s.stage !== 2 && s.stage !== 3) throw new RangeError(`stage must be 2 or 3, got ${s.stage}`);
    if (s.offloadParams && s.stage !== 3) throw new RangeError("offloadParams needs stage 3");
    if (!Number.isSafeInteger(s.gpusPerNode) || s.gpusPerNode < 1) throw new RangeError(`${o.estimatorName ? "numGpusPerNode" : "gpusPerNode"} must be an integer >= 1, got ${s.gpusPerNode}`);
    if (!Number.isSafeInteger(s.numNodes) || s.numNodes < 1) throw new RangeError(`numNodes must be an integer >= 1, got ${s.numNodes}`);
  }
  const b = perParam(s, o), f = o.noFactor ? 1 : 1.5;
  if (o.divide) return Math.floor(h / (b * f));
  const cpu = (psi: number) => Math.trunc(psi * b * f);
  let lo = 0, hi = 1;
  while (cpu(hi) <= h) { lo = hi; hi *= 2; }
  while (hi - lo > 1) { const mid = Math.floor((lo + hi) / 2); if (cpu(mid) <= h) lo = mid; else hi = mid; }
  return lo;
};

export const mutants: Record<string, Mutant<F>> = {
  "the memory divided by bytes × 1.5 (the float product not followed)": { impl: make({ divide: true }), caughtBy: "the float product at the boundary: equal fits" },
  "no buffer factor": { impl: make({ noFactor: true }), caughtBy: ["the stub's example", "ZeRO-2: 4 bytes per GPU of the node's processes"] },
  "ZeRO-3 without zero.Init counted as with it": { impl: make({ ignoreInit: true }), caughtBy: "ZeRO-3: zero.Init and the nodes, parameters offloaded or not" },
  "the nodes not dividing ZeRO-3's share": { impl: make({ noNodes: true }), caughtBy: "ZeRO-3: zero.Init and the nodes, parameters offloaded or not" },
  "no check of the input": { impl: make({ noCheck: true }), caughtBy: "bad input names the field" },
  "the error names the estimator's num_gpus_per_node (numGpusPerNode), not the field gpusPerNode": { impl: make({ estimatorName: true }), caughtBy: "bad input names the field" },
};
