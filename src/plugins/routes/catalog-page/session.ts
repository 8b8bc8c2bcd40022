import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { EncryptJWT, jwtDecrypt, type JWTPayload } from "jose";

/** The page's cookies: the signed-in session, a sign-in under way (state and PKCE verifier), and the token form's CSRF nonce. */
export const SESSION_COOKIE = "skills_session";
export const SIGN_IN_COOKIE = "skills_sign_in";
export const CSRF_COOKIE = "skills_csrf";

/** What a session cookie holds: the token the server checks again on every request, sealed. */
export interface SessionContent {
  readonly mode: "token" | "oauth";
  readonly token: string;
}

/** What a sign-in under way keeps between the redirect to the issuer and the way back. */
export interface SignInContent {
  readonly state: string;
  readonly verifier: string;
  readonly redirectUri: string;
}

/**
 * Seals what the cookies carry: AES-256-GCM (a JWE, `dir`) under a key only the server holds, so a
 * browser can neither read a cookie (the access token inside stays the server's) nor change or
 * forge one. Each cookie is sealed for one use (its `aud`), so one cannot stand in for another.
 */
export class CookieSealer {
  readonly #key: Uint8Array;

  /** `secret`: the configured one (replicas must share it), else a random key of this process. */
  constructor(
    secret: string | undefined,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.#key =
      secret === undefined
        ? randomBytes(32)
        : createHash("sha256").update(`skills-kernel catalog page\0${secret}`).digest();
  }

  async seal(use: string, content: object, expiresAtSec: number): Promise<string> {
    return new EncryptJWT({ ...content } as JWTPayload)
      .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
      .setAudience(use)
      .setIssuedAt(Math.floor(this.now().getTime() / 1000))
      .setExpirationTime(expiresAtSec)
      .encrypt(this.#key);
  }

  /** The content sealed for `use`, or undefined for anything else: forged, changed, expired, sealed for another use or by another key. */
  async unseal(use: string, sealed: string): Promise<JWTPayload | undefined> {
    try {
      const { payload } = await jwtDecrypt(sealed, this.#key, {
        audience: use,
        keyManagementAlgorithms: ["dir"],
        contentEncryptionAlgorithms: ["A256GCM"],
        requiredClaims: ["exp"],
        currentDate: this.now(),
      });
      return payload;
    } catch {
      return undefined;
    }
  }

  /** A value bound to `subject` that only this key could make: the forms' CSRF tokens. */
  tag(purpose: string, subject: string): string {
    return createHmac("sha256", this.#key).update(`${purpose}\0${subject}`).digest("base64url");
  }

  /** Whether `candidate` is the tag of `subject`, compared in constant time. */
  tagMatches(purpose: string, subject: string, candidate: string): boolean {
    const expected = Buffer.from(this.tag(purpose, subject));
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  nowSec(): number {
    return Math.floor(this.now().getTime() / 1000);
  }
}

/** A session cookie's content, when it holds one. */
export function sessionContent(payload: JWTPayload | undefined): SessionContent | undefined {
  if (
    payload === undefined ||
    typeof payload.token !== "string" ||
    (payload.mode !== "token" && payload.mode !== "oauth")
  )
    return undefined;
  return { mode: payload.mode, token: payload.token };
}

/** A sign-in cookie's content, when it holds one. */
export function signInContent(payload: JWTPayload | undefined): SignInContent | undefined {
  if (payload === undefined) return undefined;
  const { state, verifier, redirectUri } = payload;
  if (typeof state !== "string" || typeof verifier !== "string" || typeof redirectUri !== "string") return undefined;
  return { state, verifier, redirectUri };
}

/** The value of one cookie in a request, or undefined. */
export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (header === null) return undefined;
  for (const pair of header.split(";")) {
    const at = pair.indexOf("=");
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

export interface CookieScope {
  /** Where the page is mounted, e.g. "/" or "/skills/": the cookie goes back to it alone. */
  readonly path: string;
  /** Served over HTTPS (directly, or by a trusted proxy that says so): the cookie is Secure. */
  readonly secure: boolean;
}

/**
 * A Set-Cookie value: HttpOnly (no script reads it), SameSite=Lax (another site's form cannot send
 * it; following a link to the page can), Secure over HTTPS. `maxAgeSec` 0 clears it.
 */
export function setCookie(name: string, value: string, scope: CookieScope, maxAgeSec: number): string {
  return [
    `${name}=${value}`,
    `Path=${scope.path}`,
    `Max-Age=${Math.max(0, maxAgeSec)}`,
    "HttpOnly",
    "SameSite=Lax",
    ...(scope.secure ? ["Secure"] : []),
  ].join("; ");
}
