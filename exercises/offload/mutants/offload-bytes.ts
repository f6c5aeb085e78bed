import type { offloadBytesPerStep } from "../offload-bytes.js";
import { simulateOffloadStep } from "../../../lib/offload/index.js";

type F = typeof offloadBytesPerStep;
const ref: F = (p) => ({ ...simulateOffloadStep({ ...p, numSteps: 1 }).bytesPerStep });

export const mutants: Record<string, { impl: F; caughtBy: string | string[] }> = {
  "counts parameters as 4 bytes (fp32) over PCIe": {
    impl: (p) => { const r = ref(p); return { ...r, h2d: 2 * r.h2d, d2h: 2 * r.d2h }; },
    caughtBy: ["the stub's example", "optimizer offload, defaults omitted, sizes that divide nothing"],
  },
  "fetches offloaded parameters once per step, not for forward and again for backward": {
    impl: (p) => { const r = ref(p); const P = 12 * p.hiddenSize ** 2 * p.numLayers; return (p.offloadParam ?? "none") !== "none" ? { ...r, h2d: r.h2d - 2 * P } : r; },
    caughtBy: "ZeRO-3 parameter offload and the NVMe tier",
  },
  "forgets writing the optimizer states back to NVMe": {
    impl: (p) => { const r = ref(p); const P = 12 * p.hiddenSize ** 2 * p.numLayers; return p.offloadOptimizer === "nvme" ? { ...r, nvmeWrite: r.nvmeWrite - 12 * P } : r; },
    caughtBy: ["ZeRO-3 parameter offload and the NVMe tier", "no offload moves nothing"],
  },
  "accepts offload_param without stage 3": {
    impl: (p) => ref({ ...p, stage: (p.offloadParam ?? "none") !== "none" ? 3 : p.stage }),
    caughtBy: "bad input names the field",
  },
  "uses 12h² + 13h parameters per layer (with biases and norms)": {
    impl: (p) => { const r = ref(p); const k = (12 * p.hiddenSize ** 2 + 13 * p.hiddenSize) / (12 * p.hiddenSize ** 2); return { h2d: r.h2d * k, d2h: r.d2h * k, nvmeRead: r.nvmeRead * k, nvmeWrite: r.nvmeWrite * k }; },
    caughtBy: ["the stub's example", "optimizer offload, defaults omitted, sizes that divide nothing"],
  },
};
