import { describe, expect, it } from "vitest";
import { authorizationUrl, codeChallengeOf, newCodeVerifier, newState, stateMatches } from "../../../../src/plugins/transports/catalog-page/pkce.js";

describe("PKCE and state", () => {
  it("derives the S256 challenge of RFC 7636's own example", () => {
    expect(codeChallengeOf("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
  });

  it("makes verifiers RFC 7636 accepts, and states, each fresh", () => {
    const verifiers = new Set(Array.from({ length: 50 }, newCodeVerifier));
    expect(verifiers.size).toBe(50);
    for (const verifier of verifiers) expect(verifier).toMatch(/^[A-Za-z0-9\-._~]{43,128}$/);
    expect(new Set(Array.from({ length: 50 }, newState)).size).toBe(50);
  });

  it("matches the kept state only, never a missing or empty one", () => {
    const state = newState();
    expect(stateMatches(state, state)).toBe(true);
    expect(stateMatches(state, `${state}x`)).toBe(false);
    expect(stateMatches(state, state.slice(1))).toBe(false);
    expect(stateMatches(state, newState())).toBe(false);
    expect(stateMatches(state, null)).toBe(false);
    expect(stateMatches(state, "")).toBe(false);
  });

  it("asks for a code with the S256 challenge, the state and the redirect URI", () => {
    const url = authorizationUrl({
      authorizationEndpoint: "https://idp.example.com/authorize?tenant=t1",
      clientId: "catalog-page",
      redirectUri: "https://skills.example.com/sign-in/callback",
      scopes: ["openid", "skills:read"],
      state: "the-state",
      verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
      resource: "https://skills.example.com/mcp",
    });
    expect(url.origin + url.pathname).toBe("https://idp.example.com/authorize");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      tenant: "t1",
      response_type: "code",
      client_id: "catalog-page",
      redirect_uri: "https://skills.example.com/sign-in/callback",
      scope: "openid skills:read",
      state: "the-state",
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
      resource: "https://skills.example.com/mcp",
    });
    expect(url.searchParams.has("code_verifier")).toBe(false);
  });
});
