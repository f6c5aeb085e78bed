/**
 * The planner's search: every plan for Llama-2-70B on 1,024 A100 80GB (128
 * nodes of 8) with a global batch of 2,048 sequences of 4,096 tokens, and the
 * page's default case (Llama-2-7B on one node of 8). Prints plans judged, the
 * time, and plans per second. The page's planner must answer its default
 * search within a second in the browser.
 */
import { parseModelConfig } from "../lib/memory/index.js";
import { loadPresetText } from "../lib/memory/loadPresetText.js";
import { clusterPreset, searchPlans } from "../lib/plan/index.js";
import { progress } from "./progress.js";

export default async function bench(): Promise<void> {
  const cases = [
    { name: "Llama-2-70B on 1,024 × A100 80GB, batch 2,048 × 4,096", model: "llama-2-70b", cluster: "1024x-a100-80gb", globalBatch: 2048, seqLen: 4096 },
    { name: "Llama-2-7B on 8 × A100 80GB, batch 64 × 4,096 (the page's default)", model: "llama-2-7b", cluster: "8x-a100-80gb", globalBatch: 64, seqLen: 4096 },
  ] as const;
  for (const c of cases) {
    progress(c.name);
    const arch = parseModelConfig(loadPresetText(c.model));
    const t0 = performance.now();
    const r = searchPlans(arch, clusterPreset(c.cluster), { globalBatch: c.globalBatch, seqLen: c.seqLen, precision: "bf16", optimizer: "adamw" });
    const s = (performance.now() - t0) / 1000;
    console.log(`${c.name}: ${r.searched.toLocaleString("en-US")} plans in ${s.toFixed(2)} s (${Math.round(r.searched / s).toLocaleString("en-US")} plans/s); ${r.ranked.length.toLocaleString("en-US")} fit; best ${r.ranked[0]?.label ?? "none"}`);
  }
}
