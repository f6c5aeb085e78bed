import { describe, expect, it } from "vitest";
import { DynamicLossScaler, LossScaler } from "./DynamicLossScaler.js";
import { createLossScaler, fp16Summary, parseDeepSpeedFp16 } from "./deepspeedFp16Config.js";
import { NOTES_ZERO2_CONFIG } from "../zero/notesZero2Config.js";

// The ZeRO-2 config of the notes (004_…), fp16 block as printed there (typed in once, in lib/zero).
const notesConfig = structuredClone(NOTES_ZERO2_CONFIG) as { -readonly [K in keyof typeof NOTES_ZERO2_CONFIG]: (typeof NOTES_ZERO2_CONFIG)[K] };

describe("parseDeepSpeedFp16", () => {
  it("parseDeepSpeedFp16(notes' ZeRO-2 config) is rejected by current DeepSpeed: min_loss_scale is an int since v0.17.1", () => {
    // DeepSpeedFP16Config.min_loss_scale: int = 1 (precision_config.py at edaa722); pydantic 2 rejects 1e-10 for an int field
    expect(() => parseDeepSpeedFp16(notesConfig, { fp16: true })).toThrow(new TypeError("fp16.min_loss_scale must be an integer >= 1 (DeepSpeedFP16Config declares it int since v0.17.1), got 1e-10"));
    expect(parseDeepSpeedFp16({ fp16: { ...notesConfig.fp16, min_loss_scale: 1 } }, { fp16: true }).scaler.minScale).toBe(1);
  });

  it("parseDeepSpeedFp16(notes' ZeRO-2 config, {fp16: true}, \"v0.17.0\") gives a dynamic scaler 2^16, window 100, hysteresis 2, min 1e-10", () => {
    const s = parseDeepSpeedFp16(notesConfig, { fp16: true }, "v0.17.0");
    expect(s.kind).toBe("dynamic");
    expect(s.scaler).toEqual({ initScale: 65536, scaleWindow: 100, minScale: 1e-10, delayedShift: 2, consecutiveHysteresis: false, raiseErrorAtMinScale: true, release: "v0.17.0" });
    const scaler = createLossScaler(s);
    expect(scaler).toBeInstanceOf(DynamicLossScaler);
    expect(scaler.lossScale).toBe(65536);
  });

  it("parseDeepSpeedFp16 resolves \"auto\" like the HF Trainer: fp16 or fp16_full_eval", () => {
    expect(parseDeepSpeedFp16(notesConfig, { fp16: false }, "v0.17.0").kind).toBe("none");
    expect(parseDeepSpeedFp16(notesConfig, { fp16FullEval: true }, "v0.17.0").kind).toBe("dynamic");
    expect(() => parseDeepSpeedFp16(notesConfig)).toThrow(/"auto": only the Hugging Face Trainer resolves it/);
  });

  it("parseDeepSpeedFp16 with no scaler keys takes DeepSpeedFP16Config's defaults (2^16, 1000, hysteresis 2, min 1)", () => {
    const s = parseDeepSpeedFp16({ fp16: { enabled: true } });
    expect(s.keysSet).toEqual([]);
    expect(s.scaler).toEqual({ initScale: 65536, scaleWindow: 1000, minScale: 1, delayedShift: 2, consecutiveHysteresis: false, raiseErrorAtMinScale: true, release: "current" });
    // v0.17.0 passed dynamic_loss_args=None and built DynamicLossScaler() with its own defaults (loss_scaler.py at v0.17.0)
    const old = createLossScaler(parseDeepSpeedFp16({ fp16: { enabled: true } }, undefined, "v0.17.0")) as DynamicLossScaler;
    expect([old.lossScale, old.options.delayedShift, old.options.release]).toEqual([2 ** 32, 1, "v0.17.0"]);
    // any one scaler key switches v0.17.0 to the config's values, the others at config.py's FP16_*_DEFAULT
    expect(createLossScaler(parseDeepSpeedFp16({ fp16: { enabled: true, hysteresis: 2 } }, undefined, "v0.17.0")).lossScale).toBe(65536);
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
    expect(bad({ enabled: true, min_loss_scale: 0 })).toThrow(/fp16.min_loss_scale must be an integer >= 1 .*, got 0/);
    expect(() => parseDeepSpeedFp16({ fp16: { enabled: true, min_loss_scale: 0 } }, undefined, "v0.17.0")).toThrow(/fp16.min_loss_scale must be a positive finite number, got 0/);
    expect(() => parseDeepSpeedFp16({}, undefined, "v1" as never)).toThrow(new RangeError("release must be one of current, v0.17.0, got v1"));
    expect(bad({ enabled: true, loss_scale: -1 })).toThrow(/fp16.loss_scale must be a finite number >= 0/);
    expect(bad({ enabled: true, loss_scale: NaN })).toThrow(/fp16.loss_scale must be a finite number >= 0, got NaN/);
    expect(bad({ enabled: true, loss_scale_windw: 100 })).toThrow(/fp16 has unknown keys: loss_scale_windw/);
    expect(bad({ enabled: "yes" })).toThrow(/fp16.enabled must be true or false/);
    expect(() => parseDeepSpeedFp16([])).toThrow(/config must be a DeepSpeed config object/);
  });
});

describe("fp16Summary", () => {
  it("fp16Summary(notes' config) per release: rejected on current DeepSpeed, a dynamic scaler with min 1e-10 on v0.17.0", () => {
    const cur = fp16Summary(notesConfig, { fp16: true });
    expect(cur.ok).toBe(false);
    expect(!cur.ok && cur.error).toMatch(/fp16.min_loss_scale must be an integer >= 1/);
    const old = fp16Summary(notesConfig, { fp16: true }, "v0.17.0");
    expect(old).toEqual({ ok: true, release: "v0.17.0", kind: "dynamic", keysSet: ["initial_scale_power", "loss_scale_window", "min_loss_scale", "hysteresis"], scaler: { initScale: 65536, scaleWindow: 100, minScale: 1e-10, delayedShift: 2, consecutiveHysteresis: false, raiseErrorAtMinScale: true, release: "v0.17.0" }, staticScale: null });
  });

  it("fp16Summary is JSON data: a static block gives staticScale, fp16 off gives scale 1; it survives JSON round trips", () => {
    const st = fp16Summary({ fp16: { enabled: true, loss_scale: 128 } });
    expect(st).toEqual({ ok: true, release: "current", kind: "static", keysSet: [], scaler: null, staticScale: 128 });
    expect(JSON.parse(JSON.stringify(st))).toEqual(st);
    expect(fp16Summary({})).toMatchObject({ ok: true, kind: "none", staticScale: 1 });
    expect(() => fp16Summary({}, undefined, "v1" as never)).toThrow(new RangeError("release must be one of current, v0.17.0, got v1"));
  });
});
