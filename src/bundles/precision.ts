// The lib code that src/precision.md imports, bundled into one module by scripts/bundle.ts.
export {FORMATS, FORMAT_NAMES, round, encode, decode, toHex, ulp, decompose, uniformValues, logUniformValues} from "../../lib/precision/index.js";
