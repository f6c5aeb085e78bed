import type { CostModel } from "./costModel.js";

/**
 * A named link, as the α-β model sees it: the bandwidth one GPU can send in
 * one direction (receiving at the same rate at the same time) and an assumed
 * per-message latency.
 * @see {@link LINK_PRESETS} for the hardware and the documents each figure comes from
 */
export interface LinkPreset extends Required<Pick<CostModel, "alphaS" | "bandwidthBytesPerS">> {
  /** Short id, e.g. "a100-nvswitch". */
  id: string;
  /** What the figure stands for, e.g. "A100 in an NVSwitch node (DGX A100): 12 NVLink-3 links". */
  name: string;
  /** How the bandwidth follows from the published figures, e.g. "600 GB/s total ÷ 2 directions". */
  derivation: string;
  /** The document the published figure comes from. */
  source: string;
}

/** Per-message latency every preset assumes: 5 µs, an order of magnitude for one NCCL step, not a specification. */
const ALPHA_S = 5e-6;

/** PCIe 4.0: 16 GT/s per lane, 128b/130b encoding, 16 lanes, 8 bits per byte (bytes/s, one direction). */
const PCIE4_X16 = (16e9 * 16 * 128) / 130 / 8;

/** PCIe 5.0: 32 GT/s per lane, 128b/130b encoding, 16 lanes (bytes/s, one direction). */
const PCIE5_X16 = (32e9 * 16 * 128) / 130 / 8;

/** One third-generation NVLink link, one direction: 600 GB/s total over 12 links, half of each link per direction (bytes/s). */
const NVLINK3_LINK = 600e9 / 12 / 2;

/**
 * Links the course's figures and exercises can stand for, with the published
 * figure each comes from and the arithmetic that turns it into bytes per
 * second in one direction (the α-β model's B for a full-duplex link). The
 * latency α = 5 µs is an assumption shared by every preset, not a published figure.
 *
 * | id | B per direction |
 * |---|---|
 * | pcie4-x16 | 31.5 GB/s |
 * | pcie5-x16 | 63.0 GB/s |
 * | nvlink3-link | 25 GB/s (= {@link DEFAULT_COST_MODEL}) |
 * | a100-nvswitch | 300 GB/s |
 * | h100-nvswitch | 450 GB/s |
 * | h800-nvswitch | 200 GB/s |
 * | b200-nvswitch | 900 GB/s |
 * | mi300x-infinity-fabric | 448 GB/s |
 * | net-50g, net-100g, net-200g, net-400g | 6.25, 12.5, 25, 50 GB/s |
 *
 * @example LINK_PRESETS.find((p) => p.id === "h100-nvswitch")!.bandwidthBytesPerS // 450e9
 * @see NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020), "Third-Generation NVLink" (12 links, 600 GB/s total per GPU; NVSwitch in DGX A100);
 *   NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022), "Fourth-Generation NVLink" (18 links, 900 GB/s total per GPU);
 *   NVIDIA HGX B200 specifications (fifth-generation NVLink, 1.8 TB/s per GPU); AMD Instinct MI300X data sheet (7 Infinity Fabric links, 128 GB/s each);
 *   PCI Express Base Specification 4.0 (16 GT/s, 128b/130b) and 5.0 (32 GT/s); IEEE 802.3 / InfiniBand EDR, HDR, NDR line rates (100, 200, 400 Gb/s)
 */
export const LINK_PRESETS: readonly LinkPreset[] = Object.freeze([
  {
    id: "pcie4-x16", name: "PCIe 4.0 ×16 (GPUs without NVLink)", alphaS: ALPHA_S, bandwidthBytesPerS: PCIE4_X16,
    derivation: "16 GT/s × 16 lanes × 128/130 ÷ 8 bits ≈ 31.5 GB/s per direction",
    source: "PCI Express Base Specification 4.0 (16 GT/s per lane, 128b/130b encoding)",
  },
  {
    id: "pcie5-x16", name: "PCIe 5.0 ×16 (host link of an H100 SXM)", alphaS: ALPHA_S, bandwidthBytesPerS: PCIE5_X16,
    derivation: "32 GT/s × 16 lanes × 128/130 ÷ 8 bits ≈ 63.0 GB/s per direction",
    source: "PCI Express Base Specification 5.0 (32 GT/s per lane, 128b/130b encoding)",
  },
  {
    id: "nvlink3-link", name: "one NVLink-3 link (A100)", alphaS: ALPHA_S, bandwidthBytesPerS: NVLINK3_LINK,
    derivation: "600 GB/s total ÷ 12 links ÷ 2 directions = 25 GB/s per direction",
    source: "NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020), \"Third-Generation NVLink\"",
  },
  {
    id: "a100-nvswitch", name: "A100 in an NVSwitch node (DGX/HGX A100): 12 NVLink-3 links", alphaS: ALPHA_S, bandwidthBytesPerS: 600e9 / 2,
    derivation: "600 GB/s total per GPU ÷ 2 directions = 300 GB/s per direction",
    source: "NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020), \"Third-Generation NVLink\" and \"NVSwitch\" (600 GB/s between any two GPUs of a DGX A100)",
  },
  {
    id: "h100-nvswitch", name: "H100 SXM in an NVSwitch node (DGX/HGX H100): 18 NVLink-4 links", alphaS: ALPHA_S, bandwidthBytesPerS: 900e9 / 2,
    derivation: "900 GB/s total per GPU ÷ 2 directions = 450 GB/s per direction",
    source: "NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022), \"Fourth-Generation NVLink\"",
  },
  {
    id: "h800-nvswitch", name: "H800 SXM in an NVSwitch node (the export variant of the H100): NVLink at 400 GB/s", alphaS: ALPHA_S, bandwidthBytesPerS: 400e9 / 2,
    derivation: "400 GB/s total per GPU ÷ 2 directions = 200 GB/s per direction",
    source: "NVIDIA H800 Tensor Core GPU datasheet (SXM: NVLink 400 GB/s); DeepSeek-AI 2024, DeepSeek-V3 Technical Report §3.2.2 (NVLink 160 GB/s achieved, IB 50 GB/s)",
  },
  {
    id: "b200-nvswitch", name: "B200 in an NVSwitch node (DGX/HGX B200): fifth-generation NVLink", alphaS: ALPHA_S, bandwidthBytesPerS: 1800e9 / 2,
    derivation: "1.8 TB/s total per GPU ÷ 2 directions = 900 GB/s per direction",
    source: "NVIDIA HGX B200 specifications and DGX B200 datasheet (NVLink 5: 1.8 TB/s GPU-to-GPU bandwidth)",
  },
  {
    id: "mi300x-infinity-fabric", name: "MI300X in an 8-GPU platform: fully connected, 7 Infinity Fabric links per GPU", alphaS: ALPHA_S, bandwidthBytesPerS: (7 * 128e9) / 2,
    derivation: "7 links × 128 GB/s (both directions) ÷ 2 = 448 GB/s per direction, assuming a collective keeps all seven links busy (several rings over different orders of the GPUs)",
    source: "AMD Instinct MI300X data sheet (AMD Infinity Fabric links: 7; peak Infinity Fabric link bandwidth: 128 GB/s)",
  },
  {
    id: "net-50g", name: "50 Gb/s network per GPU between nodes (4 × 100 Gb/s adapters for 8 GPUs, e.g. Omni-Path)", alphaS: ALPHA_S, bandwidthBytesPerS: 50e9 / 8,
    derivation: "4 × 100 Gb/s per node ÷ 8 GPUs ÷ 8 bits = 6.25 GB/s per GPU and direction",
    source: "BigScience tr11-176B-ml README (Jean Zay: 8 GPUs and 4 Omni-Path 100 Gb/s links per node)",
  },
  {
    id: "net-100g", name: "100 Gb/s network per GPU between nodes (EDR InfiniBand, 100 GbE)", alphaS: ALPHA_S, bandwidthBytesPerS: 100e9 / 8,
    derivation: "100 Gb/s ÷ 8 bits = 12.5 GB/s per direction",
    source: "InfiniBand EDR line rate (100 Gb/s per 4x port); IEEE 802.3 100 GbE",
  },
  {
    id: "net-200g", name: "200 Gb/s network per GPU between nodes (HDR InfiniBand)", alphaS: ALPHA_S, bandwidthBytesPerS: 200e9 / 8,
    derivation: "200 Gb/s ÷ 8 bits = 25 GB/s per direction",
    source: "InfiniBand HDR line rate (200 Gb/s per 4x port)",
  },
  {
    id: "net-400g", name: "400 Gb/s network per GPU between nodes (NDR InfiniBand)", alphaS: ALPHA_S, bandwidthBytesPerS: 400e9 / 8,
    derivation: "400 Gb/s ÷ 8 bits = 50 GB/s per direction",
    source: "InfiniBand NDR line rate (400 Gb/s per 4x port)",
  },
].map((p) => Object.freeze(p)));

/**
 * The cost model of a named link.
 * @param id one of the ids of {@link LINK_PRESETS}, e.g. "a100-nvswitch"
 * @returns `{alphaS, bandwidthBytesPerS}` of that link (a new object)
 * @throws RangeError `unknown link preset "nvlink5"; known: pcie4-x16, nvlink3-link, …`
 * @example linkCostModel("net-100g") // { alphaS: 5e-6, bandwidthBytesPerS: 12.5e9 }
 * @see {@link LINK_PRESETS} (sources of every figure)
 */
export function linkCostModel(id: string): CostModel {
  const p = LINK_PRESETS.find((x) => x.id === id);
  if (!p) throw new RangeError(`unknown link preset ${JSON.stringify(id)}; known: ${LINK_PRESETS.map((x) => x.id).join(", ")}`);
  return { alphaS: p.alphaS, bandwidthBytesPerS: p.bandwidthBytesPerS };
}
