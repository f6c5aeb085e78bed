// Data loader (runs in Node at build time): every config.json shipped in
// lib/memory/configs, as text (for the calculator's paste box) and already
// parsed by the same parseModelConfig the CLI and the tests use, so the page
// parses nothing on open.
import { readFileSync } from "node:fs";
import { PRESET_NAMES } from "../../lib/memory/presets.js";
import { parseModelConfig } from "../../lib/memory/parseModelConfig.js";

const texts: Record<string, string> = {};
const archs: Record<string, unknown> = {};
for (const name of PRESET_NAMES) {
  texts[name] = readFileSync(new URL(`../../lib/memory/configs/${name}.json`, import.meta.url), "utf8");
  archs[name] = parseModelConfig(texts[name]);
}
process.stdout.write(JSON.stringify({ texts, archs }));
