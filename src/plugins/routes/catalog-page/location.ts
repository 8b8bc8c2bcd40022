/** Where a page request arrived, as the browser sees it: what cookies and redirects are made for. */
export interface PageLocation {
  /** The scheme and host the browser used, e.g. https://skills.example.com. */
  readonly origin: string;
  /** The path the page is mounted under, with a trailing slash: "/" or "/skills/". */
  readonly mountPath: string;
  /** Served over HTTPS: directly, or by a proxy in front that says so and is trusted to. */
  readonly secure: boolean;
}

/**
 * `path` is the request's path below the mount point, so the mount is what comes before it. Behind
 * a proxy that ends TLS the request itself is http: its `X-Forwarded-Proto` counts only when the
 * operator says the proxy is trusted to set it.
 */
export function locate(request: Request, path: string, trustForwardedProto: boolean): PageLocation {
  const url = new URL(request.url);
  const forwarded = trustForwardedProto
    ? request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase()
    : undefined;
  const secure = forwarded === undefined ? url.protocol === "https:" : forwarded === "https";
  const mount = url.pathname.endsWith(path) ? url.pathname.slice(0, url.pathname.length - path.length) : url.pathname;
  return { origin: `${secure ? "https" : "http"}://${url.host}`, mountPath: `${mount.replace(/\/+$/, "")}/`, secure };
}

/** The relative way from a page at `path` back to the list page (`/skill/x/` → `../../`). */
export function rootFor(path: string): string {
  const depth = path.split("/").length - 2;
  return depth <= 0 ? "./" : "../".repeat(depth);
}

/**
 * Whether a form post comes from this page itself: a browser names the page's origin in `Origin`
 * and says `same-origin` in `Sec-Fetch-Site`; another site's form names its own. A client that
 * sends neither is no browser, which no other site can make post.
 */
export function postedFromHere(request: Request, here: PageLocation): boolean {
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== here.origin) return false;
  const site = request.headers.get("sec-fetch-site");
  return site === null || site === "same-origin";
}
