import { CONTENT_SECURITY_POLICY, html, page } from "./html.js";

/**
 * Headers on every page: no script may run, nothing may frame it, and nothing is guessed or kept.
 * No referrer leaves for another site; the page's own forms keep theirs, since a browser sends
 * `Origin: null` under `no-referrer` and the Origin check would then refuse them.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
};

/** A page answer; `cookies` are Set-Cookie values, each a header of its own. */
export function answer(
  status: number,
  body: string | Uint8Array | null,
  extra: Record<string, string> = {},
  cookies: readonly string[] = [],
): Response {
  const headers = new Headers({ ...PAGE_HEADERS, ...extra });
  for (const cookie of cookies) headers.append("set-cookie", cookie);
  return new Response(body, { status, headers });
}

/** A 303 to `location` (relative to the page, or the issuer's absolute URL). */
export function redirect(location: string, cookies: readonly string[] = []): Response {
  return answer(303, null, { location }, cookies);
}

/** A page that says one thing, with the way back to the list. */
export function notice(
  status: number,
  message: string,
  root: string,
  cookies: readonly string[] = [],
  extra: Record<string, string> = {},
): Response {
  return answer(
    status,
    page("Not here", "", html`<h1>${message}</h1><p><a href="${root}">All skills</a></p>`, root),
    extra,
    cookies,
  );
}
