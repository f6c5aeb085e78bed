// Data loader (runs in Node at build time): the sample files of the zero page's
// "your config" box, and what lib/zero's readers make of them, so the page
// loads no parser (nor zod, nor yaml) until a reader edits a file.
import { readFileSync } from "node:fs";
import { summarizeConfig, type ConfigKind } from "../../lib/zero/summarizeConfig.js";

const files: Record<ConfigKind, string> = { deepspeed: "ds_zero3_nvme.json", "hf-fsdp": "hf_fsdp_config.json", accelerate: "accelerate_fsdp_old.yaml" };
const defaults = { worldSize: 8, hiddenSize: 5120, fsdpWords: "full_shard auto_wrap" };
const texts: Record<string, string> = {};
const summaries: Record<string, unknown> = {};
for (const [kind, name] of Object.entries(files) as [ConfigKind, string][]) {
  texts[kind] = readFileSync(new URL(`../../lib/zero/configs/${name}`, import.meta.url), "utf8");
  summaries[kind] = summarizeConfig(kind, texts[kind], defaults);
}
process.stdout.write(JSON.stringify({ texts, summaries, defaults }));
