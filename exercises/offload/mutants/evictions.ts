import type { chooseEvictions } from "../evictions.js";
import { chooseEvictions as lib } from "../../../lib/offload/index.js";

type F = typeof chooseEvictions;

export const mutants: Record<string, { impl: F; caughtBy: string | string[] }> = {
  "evicts the nearest next use first (LRU-like, not Gemini's)": {
    impl: (x) => lib({ ...x, nextUse: x.nextUse.map((u) => 100 - u) }),
    caughtBy: ["the stub's example", "random situations, unsorted, with ties"],
  },
  "forgets the needed chunks still on the CPU": {
    impl: (x) => lib({ ...x, need: x.need.filter((k) => x.onGpu.includes(k)) }),
    caughtBy: ["the stub's example", "random situations, unsorted, with ties"],
  },
  "evicts every chunk it may, not just enough": {
    impl: (x) => { const r = lib(x); return r.length === 0 ? r : x.onGpu.filter((k) => !x.need.includes(k)).sort((a, b) => x.nextUse[b] - x.nextUse[a] || b - a); },
    caughtBy: "random situations, unsorted, with ties",
  },
  "on a tie evicts the lower index first": {
    impl: (x) => { const n = x.nextUse.length; return lib({ ...x, nextUse: x.nextUse.map((u, i) => u * (n + 1) - i) }); },
    caughtBy: ["random situations, unsorted, with ties", "nothing to evict, and never a needed chunk"],
  },
  "returns [] instead of failing when the chunks cannot fit": {
    impl: (x) => { try { return lib(x); } catch (e) { if ((e as Error).message.startsWith("Adjust")) return []; throw e; } },
    caughtBy: ["random situations, unsorted, with ties", "bad input names the field"],
  },
};
