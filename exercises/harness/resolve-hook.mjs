// Module resolution for graders kept outside the repository (`--graders DIR`).
// Registered by the grade command and its workers (register-hooks.mjs):
// - `llm-training-course/…` resolves as if imported from this repository
//   (package.json "exports": llm-training-course/harness, …/lib/<path>.js,
//   …/exercises/<path>.js), wherever the importing file is;
// - a bare package (fast-check) that a file outside the repository cannot
//   find is resolved from the repository's node_modules;
// - TypeScript files outside the repository are ES modules (a folder of
//   graders needs no package.json of its own).
const ROOT = new URL("../../", import.meta.url).href;
const PACKAGE_JSON = new URL("package.json", ROOT).href;
const NAME = "llm-training-course";

const outside = (url) => typeof url === "string" && url.startsWith("file:") && !url.startsWith(ROOT) && !url.includes("/node_modules/");
const bare = (s) => !/^[./#]|^[a-z][a-z0-9+.-]*:/i.test(s);

export async function resolve(specifier, context, next) {
  let r;
  if (specifier === NAME || specifier.startsWith(`${NAME}/`)) {
    r = await next(specifier, { ...context, parentURL: PACKAGE_JSON });
  } else {
    try {
      r = await next(specifier, context);
    } catch (err) {
      if (!(bare(specifier) && outside(context.parentURL))) throw err;
      r = await next(specifier, { ...context, parentURL: PACKAGE_JSON });
    }
  }
  if (outside(r.url) && /\.m?ts(?:[?#]|$)/.test(r.url)) return { ...r, format: "module" };
  return r;
}
