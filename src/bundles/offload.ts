// The lib code that src/offload.md imports, bundled into one module by scripts/bundle.ts.
export {simulateOffloadStep, offloadMemory, resolveOffloadConfig, DEFAULT_OFFLOAD_HARDWARE, ADAM_BYTES_PER_ELEMENT, CPU_ADAM_BYTES_PER_ELEMENT, simulateGemini, normwiseUlps, adamLoop} from "../../lib/offload/index.js";
