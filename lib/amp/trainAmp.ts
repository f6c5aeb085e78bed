/**
 * A training loop over {@link ampStep}: loss curves, loss-scale traces and
 * skipped steps for one configuration.
 */
import { ampStep, initAmpState, type AmpConfig, type AmpModel, type AmpState, type AmpStepRecord } from "./ampStep.js";

/** Result of {@link trainAmp}. */
export interface TrainAmpResult {
  /** One record per step (events dropped except for the first `keepEventsFor` steps). */
  records: AmpStepRecord[];
  /** The final state. */
  state: AmpState;
}

/**
 * Trains `steps` AMP iterations from `init` on batches from `nextBatch`.
 * @param model the model adapter
 * @param init initial weights (fp32), not modified
 * @param nextBatch returns the batch of step i (seeded by the caller, so runs see the same data)
 * @param config the AMP configuration
 * @param steps number of iterations, integer >= 1
 * @param keepEventsFor keep the event trace of the first k steps (default 3)
 * @returns {@link TrainAmpResult}
 * @throws {RangeError} `steps must be an integer >= 1, got 0`; and the messages of {@link initAmpState} / {@link ampStep}
 * @example
 * const s = charLmSetup({ model: AMP_LIVE_MODEL, batchSize: 8, seqLen: 8 });
 * trainAmp(s.model, s.init, s.batch, { precision: "fp16", lossScaling: "dynamic", optimizer: { kind: "adamw", lr: 1e-2 } }, 20).records.length; // 20
 * @see Micikevicius et al. 2017, Mixed Precision Training; PyTorch "Automatic Mixed Precision examples" (torch.amp) docs: the GradScaler training loop
 */
export function trainAmp<B>(model: AmpModel<B>, init: readonly Float32Array[], nextBatch: (step: number) => B, config: AmpConfig, steps: number, keepEventsFor = 3): TrainAmpResult {
  const records: AmpStepRecord[] = [];
  let state: AmpState | undefined;
  for (const r of ampSteps(model, init, nextBatch, config, steps)) {
    records.push(r.record.step < keepEventsFor ? r.record : { ...r.record, events: [] });
    state = r.state;
  }
  return { records, state: state! };
}

/**
 * The same run as {@link trainAmp}, one step at a time: a generator, so that
 * a page can yield to the browser between steps (a long loop then never
 * freezes the sliders) and draw the run as it goes.
 * @param model the model adapter
 * @param init initial weights (fp32), not modified
 * @param nextBatch returns the batch of step i
 * @param config the AMP configuration
 * @param steps number of iterations, integer >= 1
 * @returns a generator of `{state, record}`, one per step, in order
 * @throws {RangeError} `steps must be an integer >= 1, got 0` (at the call, before any step); the messages of {@link initAmpState} / {@link ampStep}
 * @example
 * const s = charLmSetup({ model: AMP_LIVE_MODEL, batchSize: 8, seqLen: 8 });
 * [...ampSteps(s.model, s.init, s.batch, { precision: "fp32", lossScaling: "none", optimizer: { kind: "sgd", lr: 0.1 } }, 3)].length; // 3
 * @see Micikevicius et al. 2017, Mixed Precision Training
 */
export function ampSteps<B>(model: AmpModel<B>, init: readonly Float32Array[], nextBatch: (step: number) => B, config: AmpConfig, steps: number): Generator<{ state: AmpState; record: AmpStepRecord }> {
  if (!(Number.isInteger(steps) && steps >= 1)) throw new RangeError(`steps must be an integer >= 1, got ${steps}`);
  const first = initAmpState(init, config);
  return (function* () {
    let state = first;
    for (let i = 0; i < steps; i++) {
      const r = ampStep(model, state, nextBatch(i), config);
      state = r.state;
      yield r;
    }
  })();
}
