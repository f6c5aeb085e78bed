// Where the site is served, read once by observablehq.config.ts from two
// environment variables (README, "Publishing"):
// - COURSE_BASE: the path the site lives under, e.g. /llm-course/ for a GitHub
//   Pages project site (default /). Framework writes every link, import and
//   data file relative to the page, so the same dist/ works under any prefix;
//   the setting goes to Framework's `base` (the <base> of 404.html, which a
//   host serves at any depth) and to the canonical links and the sitemap.
// - COURSE_SITE_URL: the site's origin, e.g. https://owner.github.io (no path:
//   the path is COURSE_BASE). Canonical links and sitemap.xml need absolute
//   URLs; without this variable the build writes neither: it never guesses a
//   host (a wrong canonical host tells search engines the page lives elsewhere).

/** The base path (starts and ends with "/") and the origin (null: no canonical links, no sitemap). */
export interface Site {
  base: string;
  url: string | null;
}

/**
 * The site's base path and origin from the environment.
 * @param env the environment (process.env)
 * @returns `{base, url}`: base "/" when COURSE_BASE is unset, a trailing "/" added; url null when COURSE_SITE_URL is unset
 * @throws {Error} `COURSE_BASE must start with "/"` or `COURSE_SITE_URL must be an origin …` on a malformed setting
 * @example siteOf({COURSE_BASE: "/llm-course", COURSE_SITE_URL: "https://o.github.io/"}) // {base: "/llm-course/", url: "https://o.github.io"}
 */
export function siteOf(env: Record<string, string | undefined>): Site {
  let base = env.COURSE_BASE?.trim() || "/";
  if (!base.startsWith("/")) throw new Error(`COURSE_BASE must start with "/": ${JSON.stringify(base)}`);
  if (!base.endsWith("/")) base += "/";
  if (/\/\/|[?#\s]/.test(base)) throw new Error(`COURSE_BASE must be a plain path such as /llm-course/: ${JSON.stringify(base)}`);
  const raw = env.COURSE_SITE_URL?.trim();
  if (!raw) return { base, url: null };
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new Error(`COURSE_SITE_URL must be an origin such as https://owner.github.io: ${JSON.stringify(raw)}`);
  }
  if (!/^https?:$/.test(u.protocol) || u.pathname !== "/" || u.search || u.hash || u.username) {
    throw new Error(`COURSE_SITE_URL must be an origin such as https://owner.github.io (the path goes in COURSE_BASE): ${JSON.stringify(raw)}`);
  }
  return { base, url: u.origin };
}

/**
 * The absolute URL of a page, as Framework names pages ("/index", "/precision", "/a/index").
 * @returns the URL (clean, without .html, an index page ending in "/"), or null without an origin and for the 404 page
 * @example canonicalUrl("/precision", {base: "/llm-course/", url: "https://o.github.io"}) // "https://o.github.io/llm-course/precision"
 */
export function canonicalUrl(path: string, site: Site): string | null {
  if (!site.url || path === "/404") return null;
  return site.url + site.base + path.slice(1).replace(/(^|\/)index$/, "$1");
}
