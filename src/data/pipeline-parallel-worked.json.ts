// Data loader (Node, build time): the pipeline-parallel page's worked example (p = 4, m = 8,
// F = 1, B = 2) and the fixed figures its prose and corrections quote, from lib/pipeline-parallel.
import { gpipeSchedule, oneFOneBSchedule, interleavedSchedule, naiveSchedule, stepTime, busyTimes, bubbleFraction, bubbleFractionOfStep, peakInFlight, p2pSendMs } from "../../lib/pipeline-parallel/index.js";
import { DEFAULT_COST_MODEL } from "../../lib/collectives/index.js";

const p = 4, m = 8, v = 2;
const times = { forward: 1, backward: 1, weight: 1 }; // B = backward + weight = 2 where B is not split
const summary = (s: ReturnType<typeof gpipeSchedule>) => ({ step: stepTime(s), busy: busyTimes(s)[0], bubble: bubbleFraction(s), bubbleOfStep: bubbleFractionOfStep(s), peak: Math.max(...peakInFlight(s)) });
const llamaActivationBytes = 1 * 4096 * 4096 * 2; // one sequence of 4096 tokens × hidden 4096 × 2 bytes (bf16); Touvron et al. 2023, Table 1
process.stdout.write(JSON.stringify({
  p, m, v,
  naive: summary(naiveSchedule(p, m, times)),
  gpipe: summary(gpipeSchedule(p, m, times)),
  oneFOneB: summary(oneFOneBSchedule(p, m, times)),
  interleaved: summary(interleavedSchedule(p, m, v, times)),
  naiveOneMicroBatchIdle: bubbleFractionOfStep(naiveSchedule(p, 1, times)),
  llama: { activationBytes: llamaActivationBytes, sendMs: p2pSendMs(llamaActivationBytes, DEFAULT_COST_MODEL), alphaUs: DEFAULT_COST_MODEL.alphaS * 1e6, bandwidthGBps: DEFAULT_COST_MODEL.bandwidthBytesPerS / 1e9 },
}));
