// Data loader (runs in Node at build time): the text of every config.json
// shipped in lib/memory/configs, keyed by preset name, so the page's
// calculator parses the same files as the CLI and the tests.
import { readFileSync } from "node:fs";
import { PRESET_NAMES } from "../../lib/memory/presets.js";

const out: Record<string, string> = {};
for (const name of PRESET_NAMES) out[name] = readFileSync(new URL(`../../lib/memory/configs/${name}.json`, import.meta.url), "utf8");
process.stdout.write(JSON.stringify(out));
