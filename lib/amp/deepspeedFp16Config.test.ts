import { describe, expect, it } from "vitest";
import { DynamicLossScaler, LossScaler } from "./DynamicLossScaler.js";
import { createLossScaler, parseDeepSpeedFp16 } from "./deepspeedFp16Config.js";

// The ZeRO-2 config of the notes (004_…), fp16 block as printed there.
const notesConfig = {
  fp16: { enabled: "auto", loss_scale: 0, loss_scale_window: 100, initial_scale_power: 16, hysteresis: 2, min_loss_scale: 1e-10 },
  zero_optimization: { stage: 2, allgather_partitions: true, allgather_bucket_size: 1e8, overlap_comm: true, reduce_scatter: true, reduce_bucket_size: 1e8, contiguous_gradients: true },
  gradient_accumulation_steps: "auto",
  gradient_clipping: "auto",
  steps_per_print: 2000,
  train_batch_size: "auto",
  train_micro_batch_size_per_gpu: "auto",
  wall_clock_breakdown: false,
};

describe("parseDeepSpeedFp16", () => {
  it("parseDeepSpeedFp16(notes' ZeRO-2 config, {fp16: true}) gives a dynamic scaler 2^16, window 100, hysteresis 2, min 1e-10", () => {
    const s = parseDeepSpeedFp16(notesConfig, { fp16: true });
    expect(s.kind).toBe("dynamic");
    expect(s.scaler).toEqual({ initScale: 65536, scaleWindow: 100, minScale: 1e-10, delayedShift: 2, consecutiveHysteresis: false, raiseErrorAtMinScale: true });
    const scaler = createLossScaler(s);
    expect(scaler).toBeInstanceOf(DynamicLossScaler);
    expect(scaler.lossScale).toBe(65536);
  });

  it("parseDeepSpeedFp16 resolves \"auto\" like the HF Trainer: fp16 or fp16_full_eval", () => {
    expect(parseDeepSpeedFp16(notesConfig, { fp16: false }).kind).toBe("none");
    expect(parseDeepSpeedFp16(notesConfig, { fp16FullEval: true }).kind).toBe("dynamic");
    expect(() => parseDeepSpeedFp16(notesConfig)).toThrow(/"auto": only the Hugging Face Trainer resolves it/);
  });

  it("parseDeepSpeedFp16 with no scaler keys takes DeepSpeedFP16Config's defaults (2^16, 1000, hysteresis 2, min 1)", () => {
    const s = parseDeepSpeedFp16({ fp16: { enabled: true } });
    expect(s.keysSet).toEqual([]);
    expect(s.scaler).toEqual({ initScale: 65536, scaleWindow: 1000, minScale: 1, delayedShift: 2, consecutiveHysteresis: false, raiseErrorAtMinScale: true });
    // older DeepSpeed passed dynamic_loss_args=None and built DynamicLossScaler() with its own defaults
    expect(createLossScaler(s, "legacy").lossScale).toBe(2 ** 32);
    expect((createLossScaler(s, "legacy") as DynamicLossScaler).options.delayedShift).toBe(1);
    // any one scaler key switches the legacy path to the config's values
    expect(createLossScaler(parseDeepSpeedFp16({ fp16: { enabled: true, hysteresis: 2 } }), "legacy").lossScale).toBe(65536);
  });

  it("parseDeepSpeedFp16: loss_scale > 0 is a static scale; no fp16 block is fp16 off (scale 1)", () => {
    const st = createLossScaler(parseDeepSpeedFp16({ fp16: { enabled: true, loss_scale: 128 } }));
    expect(st).toBeInstanceOf(LossScaler);
    expect(st.lossScale).toBe(128);
    expect(createLossScaler(parseDeepSpeedFp16({})).lossScale).toBe(1);
  });

  it("parseDeepSpeedFp16 rejects bad values and unknown keys with messages naming the key", () => {
    const bad = (fp16: object) => () => parseDeepSpeedFp16({ fp16 });
    expect(bad({ enabled: true, loss_scale_window: -5 })).toThrow(/fp16.loss_scale_window must be an integer >= 1, got -5/);
    expect(bad({ enabled: true, hysteresis: 0 })).toThrow(/fp16.hysteresis must be an integer >= 1, got 0/);
    expect(bad({ enabled: true, min_loss_scale: 0 })).toThrow(/fp16.min_loss_scale must be a positive finite number, got 0/);
    expect(bad({ enabled: true, loss_scale: -1 })).toThrow(/fp16.loss_scale must be a finite number >= 0/);
    expect(bad({ enabled: true, loss_scale: NaN })).toThrow(/fp16.loss_scale must be a finite number >= 0, got NaN/);
    expect(bad({ enabled: true, loss_scale_windw: 100 })).toThrow(/fp16 has unknown keys: loss_scale_windw/);
    expect(bad({ enabled: "yes" })).toThrow(/fp16.enabled must be true or false/);
    expect(() => parseDeepSpeedFp16([])).toThrow(/config must be a DeepSpeed config object/);
  });
});
