// Data loader (Node, build time): lib/nn's model trained with MoE blocks on the sonnets:
// the dense/MoE comparison at equal active width and the load-balancing runs
// (lib/expert-parallel MOE_COMPARISON, BALANCING_RUNS, trainMoeDemo).
import { MOE_COMPARISON, BALANCING_RUNS, trainMoeDemo } from "../../lib/expert-parallel/index.js";

const steps = 200;
const comparison = MOE_COMPARISON.map((d) => { const r = trainMoeDemo(d, steps); return { label: d.label, losses: r.losses, total: r.total, active: r.active }; });
const balancing = BALANCING_RUNS.map((d) => { const r = trainMoeDemo(d, steps); return { label: d.label, losses: r.losses, routed: r.routed }; });
process.stdout.write(JSON.stringify({ steps, comparison, balancing }));
