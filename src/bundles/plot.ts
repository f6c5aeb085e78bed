// Observable Plot with the d3 packages it uses, bundled into one module by scripts/bundle.ts
// (Framework would load Plot, d3 and each of its ~30 d3-* packages as separate files).
export * from "@observablehq/plot";
