// Data loader (Node, build time): memory per GPU of the pipeline-parallel page's set-ups
// (lib/memory PARALLEL_MEMORY_EXAMPLES), computed by estimateMemory from the same
// inputs as the printed `npm run estimate` commands; lib/memory/parallelMemoryExamples.test.ts
// checks that the CLI's --json prints the same bytes.
import { parallelMemoryRows } from "../../lib/memory/index.js";
import { loadPresetText } from "../../lib/memory/loadPresetText.js";

process.stdout.write(JSON.stringify(parallelMemoryRows("pipeline-parallel", loadPresetText), null, 2));
