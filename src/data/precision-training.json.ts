// Data loader (Node, build time): the training figure of the precision page. lib/nn's model trained
// with AdamW in fp32 (lib/nn train) and in simulated bf16/fp16 (lib/precision trainQuantized), with the
// same initial weights and batches, so the page draws the curves without training in the browser.
import { train } from "../../lib/nn/index.js";
import { castArray } from "../../lib/precision/index.js";
import { trainQuantized } from "../../lib/precision/trainQuantized.js";

const steps = 200;
const model = { width: 16, hiddenDim: 32, numBlocks: 1 };
const batchSize = 8, seqLen = 8, lr = 3e-3;
const shared = { steps, model, batchSize, seqLen, lr };
const runs = [
  { name: "fp32", losses: train({ steps, model, batchSize, seqLen, adamw: { lr } }).losses },
  { name: "bf16, fp32 master weights", losses: trainQuantized({ format: "bf16", ...shared }).losses },
  { name: "bf16, no master weights", losses: trainQuantized({ format: "bf16", masterWeights: false, ...shared }).losses },
  { name: "fp16, fp32 master, loss scale 1024", losses: trainQuantized({ format: "fp16", lossScale: 1024, ...shared }).losses },
];
// How many values one bf16 step rounds (the working copy, every activation and gradient): counted through the hook.
let roundingsPerStep = 0;
trainQuantized({ format: "bf16", ...shared, steps: 1, quantize: (v, f) => { roundingsPerStep += v.length; return castArray(f, v); } });
process.stdout.write(JSON.stringify({ steps, model, batchSize, seqLen, lr, roundingsPerStep, runs }));
