import { randomBytes } from "node:crypto";
import * as oauth from "oauth4webapi";
import type { Logger } from "../../../kernel/logger.js";
import type { Caller, RouteRequest, SignInGate } from "../../transports/http/index.js";
import { html, page, type Markup } from "./html.js";
import { endSessionUrl, exchangeCode, issuerMetadata, SignInError, type IssuerMetadata } from "./issuer.js";
import { locate, postedFromHere, rootFor, type PageLocation } from "./location.js";
import { authorizationUrl, checkAnswer } from "./pkce.js";
import { answer, notice, redirect } from "./respond.js";
import {
  type CookieSealer,
  CSRF_COOKIE,
  readCookie,
  SESSION_COOKIE,
  sessionContent,
  setCookie,
  SIGN_IN_COOKIE,
  signInContent,
} from "./session.js";

export interface SignInOptions {
  /** The OAuth client the page signs in as: a public client (PKCE, no secret). */
  readonly oauthClientId?: string;
  /** Scopes the page asks for; default the http plugin's required scopes. */
  readonly oauthScopes?: readonly string[];
  readonly sessionMaxAgeSec: number;
  readonly trustForwardedProto: boolean;
}

/** What the page header shows of a signed-in caller. */
export interface Account {
  readonly name: string;
  /** The sign-out form's CSRF token: bound to this session, made with the server's key. */
  readonly signOutTag: string;
}

/** A sign-in under way may take this long, at the issuer and back. */
const SIGN_IN_TTL_SEC = 600;
/** Browsers keep a cookie up to about 4 KB; a sealed token past this would be dropped without a word. */
const MAX_COOKIE_CHARS = 4000;
/** A form post is a token and a CSRF token: anything longer is not one. */
const MAX_FORM_BYTES = 16 * 1024;

// Each sealed cookie's use (its `aud`): one cannot be replayed as another.
const SESSION_USE = "catalog-page session";
const SIGN_IN_USE = "catalog-page sign-in";
const CSRF_PURPOSE = "token form";
const SIGN_OUT_PURPOSE = "sign out";

/**
 * The page's sign-in, for a server with auth: the browser keeps the token it signed in with in a
 * sealed cookie, and every page checks it again as the bearer check would, so a token revoked or
 * expired at the issuer signs the browser out. With OAuth it is the authorization-code flow with
 * PKCE (S256) and `state` against the issuer; with the static token, a form. Only the page's own
 * routes read the cookie: MCP and the REST API take the Authorization header alone.
 */
export class PageSignIn {
  // Keyed by the request session() was given: the app hands the route that same one.
  readonly #accounts = new WeakMap<RouteRequest, Account>();
  readonly #metadata = new Map<string, () => Promise<IssuerMetadata>>();

  constructor(
    private readonly sealer: CookieSealer,
    private readonly options: SignInOptions,
    private readonly logger: Logger,
  ) {}

  /** Who a request's page is for, once `session` let it through. */
  account(request: RouteRequest): Account | undefined {
    return this.#accounts.get(request);
  }

  /** A catalog page: the caller its session cookie names, else the way to sign in. */
  async session(request: Request, path: string, gate: SignInGate): Promise<Caller | Response> {
    const here = locate(request, path, this.options.trustForwardedProto);
    const root = rootFor(path);
    const sealed = readCookie(request, SESSION_COOKIE);
    if (sealed === undefined) return redirect(`${root}sign-in`);
    const cleared = [setCookie(SESSION_COOKIE, "", scopeOf(here), 0)];
    const content = sessionContent(await this.sealer.unseal(SESSION_USE, sealed));
    if (content === undefined || content.mode !== gate.mode)
      return this.#signInAgain(401, "This sign-in is not valid here.", root, cleared);
    const verdict = await gate.check(content.token);
    if ("refused" in verdict) {
      if (verdict.status === 503)
        return notice(503, `Cannot check your sign-in now: ${verdict.refused}.`, root, [], { "retry-after": "5" });
      return this.#signInAgain(
        verdict.status,
        `Your sign-in is no longer accepted: ${verdict.refused}.`,
        root,
        cleared,
      );
    }
    this.#accounts.set(request, {
      name: verdict.caller.identity?.subject ?? "the server's token",
      signOutTag: this.sealer.tag(SIGN_OUT_PURPOSE, sealed),
    });
    return verdict.caller;
  }

  /** `/sign-in`, `/sign-in/oauth`, `/sign-in/callback` and `/sign-out`, on a server with auth. */
  async answer(request: Request, path: string, gate: SignInGate): Promise<Response> {
    const here = locate(request, path, this.options.trustForwardedProto);
    const root = rootFor(path);
    const method = request.method;
    if (path === "/sign-out")
      return method === "POST"
        ? this.#signOut(request, gate, here, root)
        : notice(405, "Sign out with the button on a page.", root, [], { allow: "POST" });
    if (path === "/sign-in" && method === "GET") return this.#signInPage(gate, here, root);
    if (gate.mode === "token" && path === "/sign-in" && method === "POST")
      return this.#tokenForm(request, gate, here, root);
    if (gate.mode === "oauth" && path === "/sign-in/oauth" && method === "GET")
      return this.#startOAuth(gate, here, root);
    if (gate.mode === "oauth" && path === "/sign-in/callback" && method === "GET")
      return this.#finishOAuth(request, gate, here, root);
    return notice(404, "Nothing here.", root);
  }

  #signInPage(gate: SignInGate, here: PageLocation, root: string): Response {
    if (gate.mode === "oauth") {
      const body = this.options.oauthClientId
        ? html`<h1>Sign in</h1><p>This catalog shows what your account may see.</p><p><a href="${root}sign-in/oauth">Sign in with ${new URL(gate.issuer).host}</a></p>`
        : html`<h1>Sign-in is not set up</h1><p>The catalog page needs an OAuth client id to sign in with: the <code>catalog-page</code> plugin's <code>oauthClientId</code> option.</p>`;
      return answer(this.options.oauthClientId ? 200 : 503, page("Sign in", "", body, root));
    }
    // The form's CSRF token is bound to a nonce in a cookie: another site can post the form, not read either.
    const nonce = randomBytes(32).toString("base64url");
    const body = html`<h1>Sign in</h1><p>This catalog needs the server's access token.</p>
<form method="post" action="${root}sign-in"><input type="hidden" name="csrf" value="${this.sealer.tag(CSRF_PURPOSE, nonce)}"><label>Token <input type="password" name="token" autocomplete="current-password" required></label><button type="submit">Sign in</button></form>`;
    return answer(200, page("Sign in", "", body, root), {}, [
      setCookie(CSRF_COOKIE, nonce, { ...scopeOf(here), path: `${here.mountPath}sign-in` }, SIGN_IN_TTL_SEC),
    ]);
  }

  async #tokenForm(request: Request, gate: SignInGate, here: PageLocation, root: string): Promise<Response> {
    const form = await readForm(request);
    const nonce = readCookie(request, CSRF_COOKIE);
    const csrf = form?.get("csrf");
    if (
      !postedFromHere(request, here) ||
      nonce === undefined ||
      typeof csrf !== "string" ||
      !this.sealer.tagMatches(CSRF_PURPOSE, nonce, csrf)
    ) {
      return this.#signInAgain(403, "This form did not come from this page, or is out of date.", root);
    }
    const verdict = await gate.check(form?.get("token") ?? "");
    if ("refused" in verdict) return this.#signInAgain(401, "That token is not accepted.", root);
    return this.#signedIn(
      here,
      root,
      { mode: "token", token: form!.get("token")! },
      this.sealer.nowSec() + this.options.sessionMaxAgeSec,
    );
  }

  async #startOAuth(gate: SignInGate & { mode: "oauth" }, here: PageLocation, root: string): Promise<Response> {
    const clientId = this.options.oauthClientId;
    if (clientId === undefined) return redirect(`${root}sign-in`);
    const issuer = await this.#issuer(gate.issuer, root);
    if (issuer instanceof Response) return issuer;
    const kept = {
      state: oauth.generateRandomState(),
      verifier: oauth.generateRandomCodeVerifier(),
      redirectUri: `${here.origin}${here.mountPath}sign-in/callback`,
    };
    const sealed = await this.sealer.seal(SIGN_IN_USE, kept, this.sealer.nowSec() + SIGN_IN_TTL_SEC);
    const location = await authorizationUrl({
      authorizationEndpoint: issuer.authorization_endpoint,
      clientId,
      redirectUri: kept.redirectUri,
      scopes: this.options.oauthScopes ?? gate.requiredScopes,
      state: kept.state,
      verifier: kept.verifier,
      ...(URL.canParse(gate.audience) && { resource: gate.audience }),
    });
    return redirect(location.href, [setCookie(SIGN_IN_COOKIE, sealed, scopeOf(here), SIGN_IN_TTL_SEC)]);
  }

  async #finishOAuth(
    request: Request,
    gate: SignInGate & { mode: "oauth" },
    here: PageLocation,
    root: string,
  ): Promise<Response> {
    const cleared = [setCookie(SIGN_IN_COOKIE, "", scopeOf(here), 0)];
    const sealed = readCookie(request, SIGN_IN_COOKIE);
    const kept = sealed === undefined ? undefined : signInContent(await this.sealer.unseal(SIGN_IN_USE, sealed));
    if (kept === undefined)
      return this.#signInAgain(400, "This sign-in was not started in this browser, or took too long.", root, cleared);
    // Not cleared: the code is not spent yet, so a reload may finish the sign-in once the issuer answers.
    const issuer = await this.#issuer(gate.issuer, root);
    if (issuer instanceof Response) return issuer;
    const clientId = this.options.oauthClientId ?? "";
    const callback = checkAnswer(issuer, clientId, new URL(request.url).searchParams, kept.state);
    if ("refused" in callback) return this.#signInAgain(callback.status, callback.refused, root, cleared);
    let token: string;
    try {
      token = await exchangeCode(issuer, {
        clientId,
        callback,
        verifier: kept.verifier,
        redirectUri: kept.redirectUri,
      });
    } catch (error) {
      if (!(error instanceof SignInError)) throw error;
      this.logger.warn(`catalog page sign-in: ${error.message}`);
      return this.#signInAgain(502, `Sign-in failed: ${error.message}.`, root, cleared);
    }
    const verdict = await gate.check(token);
    if ("refused" in verdict)
      return this.#signInAgain(
        verdict.status === 503 ? 503 : 403,
        `The issuer's token is not accepted here: ${verdict.refused}.`,
        root,
        cleared,
      );
    const expiresAt = Math.min(
      this.sealer.nowSec() + this.options.sessionMaxAgeSec,
      verdict.caller.authInfo?.expiresAt ?? Number.POSITIVE_INFINITY,
    );
    return this.#signedIn(here, root, { mode: "oauth", token }, expiresAt, cleared);
  }

  async #signedIn(
    here: PageLocation,
    root: string,
    content: { mode: "token" | "oauth"; token: string },
    expiresAtSec: number,
    also: string[] = [],
  ): Promise<Response> {
    const sealed = await this.sealer.seal(SESSION_USE, content, expiresAtSec);
    if (sealed.length > MAX_COOKIE_CHARS)
      return this.#signInAgain(500, "The token is too large to keep in a browser cookie.", root, also);
    return redirect(root, [
      ...also,
      setCookie(SESSION_COOKIE, sealed, scopeOf(here), expiresAtSec - this.sealer.nowSec()),
    ]);
  }

  async #signOut(request: Request, gate: SignInGate, here: PageLocation, root: string): Promise<Response> {
    const sealed = readCookie(request, SESSION_COOKIE);
    if (sealed !== undefined) {
      const tag = (await readForm(request))?.get("csrf");
      if (
        !postedFromHere(request, here) ||
        typeof tag !== "string" ||
        !this.sealer.tagMatches(SIGN_OUT_PURPOSE, sealed, tag)
      ) {
        return notice(403, "This sign-out did not come from this page.", root);
      }
    }
    const cleared = [setCookie(SESSION_COOKIE, "", scopeOf(here), 0)];
    // The issuer's own session would sign the browser straight back in: end it too when it says how.
    const atIssuer =
      sealed !== undefined && gate.mode === "oauth" ? await this.#endSession(gate.issuer, here) : undefined;
    if (atIssuer === undefined) return redirect(`${root}sign-in`, cleared);
    // Not a redirect: the form's `form-action 'self'` forbids one to another origin. A Refresh
    // header is a navigation of its own, and the link is there if a browser ignores it.
    const body = html`<h1>Signed out</h1><p>Ending your session at ${atIssuer.host}: <a href="${atIssuer.href}">continue</a>.</p>`;
    return answer(200, page("Signed out", "", body, root), { refresh: `0; url=${atIssuer.href}` }, cleared);
  }

  /** The issuer's end-session URL, or undefined when it has none or cannot be reached: the page's own sign-out stands. */
  async #endSession(issuer: string, here: PageLocation): Promise<URL | undefined> {
    const clientId = this.options.oauthClientId;
    if (clientId === undefined) return undefined;
    try {
      return endSessionUrl(await this.#metadataOf(issuer), clientId, `${here.origin}${here.mountPath}sign-in`);
    } catch (error) {
      this.logger.warn(`catalog page sign-out: the issuer's session is left open: ${(error as Error).message}`);
      return undefined;
    }
  }

  #signInAgain(status: number, message: string, root: string, cookies: readonly string[] = []): Response {
    return answer(
      status,
      page("Sign in", "", html`<h1>${message}</h1><p><a href="${root}sign-in">Sign in</a></p>`, root),
      {},
      cookies,
    );
  }

  /** The issuer's metadata, asked once, and again after a failure. */
  #metadataOf(issuer: string): Promise<IssuerMetadata> {
    let found = this.#metadata.get(issuer);
    if (found === undefined) this.#metadata.set(issuer, (found = issuerMetadata(issuer)));
    return found();
  }

  /** The issuer's metadata, or the page saying it cannot be reached. */
  async #issuer(issuer: string, root: string): Promise<IssuerMetadata | Response> {
    try {
      return await this.#metadataOf(issuer);
    } catch (error) {
      this.logger.warn(`catalog page sign-in: ${(error as Error).message}`);
      return notice(503, "The sign-in service cannot be reached; try again later.", root, [], { "retry-after": "5" });
    }
  }
}

/** The header's account line: who is signed in, and a sign-out button (a POST form with its CSRF token). */
export function accountMarkup(account: Account | undefined, root: string): Markup | undefined {
  if (account === undefined) return undefined;
  return html`<form class="account" method="post" action="${root}sign-out"><span>Signed in: ${account.name}</span><input type="hidden" name="csrf" value="${account.signOutTag}"><button type="submit">Sign out</button></form>`;
}

function scopeOf(here: PageLocation) {
  return { path: here.mountPath, secure: here.secure };
}

/** A urlencoded form body of at most MAX_FORM_BYTES, or undefined for anything else. */
async function readForm(request: Request): Promise<URLSearchParams | undefined> {
  if (
    !request.headers.get("content-type")?.toLowerCase().startsWith("application/x-www-form-urlencoded") ||
    request.body === null
  )
    return undefined;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_FORM_BYTES) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}
