/**
 * The planner's search: every plan for Llama-2-70B on 1,024 A100 80GB (128
 * nodes of 8) with a global batch of 2,048 sequences of 4,096 tokens, the
 * page's default case (Llama-2-7B on one node of 8), and the two 5D cases the
 * page offers: Mixtral-8x7B on 64 H100 (expert parallelism) and a Llama-3.1-70B
 * at 131,072 tokens on 512 H100 (context parallelism). Prints plans judged, the
 * wall time, the CPU time and plans per second. A reader's search should answer
 * within about a second on a laptop.
 */
import { readFileSync } from "node:fs";
import { parseModelConfig } from "../lib/memory/index.js";
import { loadPresetText } from "../lib/memory/loadPresetText.js";
import { clusterOf, clusterPreset, searchPlans, type Cluster } from "../lib/plan/index.js";
import { progress } from "./progress.js";

export default async function bench(): Promise<void> {
  const h100 = (nodes: number): Cluster => clusterOf("h100-80gb", 8, nodes, "net-400g", 2 * 2 ** 40);
  const cases: { name: string; config: string; cluster: Cluster; globalBatch: number; seqLen: number }[] = [
    { name: "Llama-2-70B on 1,024 × A100 80GB, batch 2,048 × 4,096", config: loadPresetText("llama-2-70b"), cluster: clusterPreset("1024x-a100-80gb"), globalBatch: 2048, seqLen: 4096 },
    { name: "Llama-2-7B on 8 × A100 80GB, batch 64 × 4,096 (the page's default)", config: loadPresetText("llama-2-7b"), cluster: clusterPreset("8x-a100-80gb"), globalBatch: 64, seqLen: 4096 },
    { name: "Mixtral-8x7B on 64 × H100, batch 1,024 × 4,096 (5D: expert parallelism)", config: loadPresetText("mixtral-8x7b"), cluster: h100(8), globalBatch: 1024, seqLen: 4096 },
    { name: "Llama-3.1-70B on 512 × H100, batch 64 × 131,072 (5D: context parallelism)", config: readFileSync("lib/plan/configs/llama-3.1-70b.json", "utf8"), cluster: h100(64), globalBatch: 64, seqLen: 131072 },
  ];
  for (const c of cases) {
    progress(c.name);
    const arch = parseModelConfig(c.config);
    const t0 = performance.now(), cpu0 = process.cpuUsage();
    const r = searchPlans(arch, c.cluster, { globalBatch: c.globalBatch, seqLen: c.seqLen, precision: "bf16", optimizer: "adamw" });
    const s = (performance.now() - t0) / 1000, cpu = process.cpuUsage(cpu0);
    const cpuS = (cpu.user + cpu.system) / 1e6;
    console.log(`${c.name}: ${r.searched.toLocaleString("en-US")} plans in ${s.toFixed(2)} s (CPU ${cpuS.toFixed(2)} s, ${Math.round(r.searched / cpuS).toLocaleString("en-US")} plans per CPU second); ${r.ranked.length.toLocaleString("en-US")} fit; best ${r.ranked[0]?.label ?? "none"}`);
  }
}
