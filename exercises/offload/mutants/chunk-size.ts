import type { searchChunkSize } from "../chunk-size.js";
import { searchChunkSize as lib, packChunks } from "../../../lib/offload/index.js";

type F = typeof searchChunkSize;
const ref: F = (s, o) => { const r = lib(s, o); return { chunkSize: r.chunkSize, wasteElements: r.wasteElements }; };

export const mutants: Record<string, { impl: F; caughtBy: string | string[] }> = {
  "does not count the last chunk's tail as waste": {
    impl: (sizes, o) => {
      const r = lib(sizes, o);
      let best = { chunkSize: 0, wasteElements: Infinity };
      for (const c of r.candidates) {
        const { chunks } = packChunks(sizes, c.chunkSize);
        const w = c.wasteElements - (c.chunkSize - chunks[chunks.length - 1].usedElements);
        if (w < best.wasteElements) best = { chunkSize: c.chunkSize, wasteElements: w };
      }
      return best;
    },
    caughtBy: ["random sizes, intervals and ranges that divide nothing", "the last chunk's tail is waste, and ties keep the smaller size"],
  },
  "on a tie keeps the larger size": {
    impl: (sizes, o) => {
      const r = lib(sizes, o);
      const best = r.candidates.reduce((b, c) => (c.wasteElements <= b.wasteElements ? c : b));
      return { chunkSize: best.chunkSize, wasteElements: best.wasteElements };
    },
    caughtBy: "the last chunk's tail is waste, and ties keep the smaller size",
  },
  "starts the search at the largest parameter without rounding up to the interval": {
    impl: (sizes, o) => {
      const start = Math.max(o.minChunkSize ?? 1, ...sizes);
      let best = { chunkSize: start, wasteElements: Infinity };
      for (let cs = start; cs <= start + o.searchRange; cs += o.searchInterval) {
        const w = packChunks(sizes, cs).wasteElements;
        if (w < best.wasteElements) best = { chunkSize: cs, wasteElements: w };
      }
      return o.searchInterval < 1 || o.searchRange < 0 ? ref(sizes, o) : best;
    },
    caughtBy: ["random sizes, intervals and ranges that divide nothing", "the last chunk's tail is waste, and ties keep the smaller size"],
  },
  "no input checks": {
    impl: (sizes, o) => { try { return ref(sizes, o); } catch { return { chunkSize: 1, wasteElements: 0 }; } },
    caughtBy: "bad input names the field",
  },
};
