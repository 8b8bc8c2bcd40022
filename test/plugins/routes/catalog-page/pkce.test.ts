import type { AuthorizationServer } from "oauth4webapi";
import { describe, expect, it } from "vitest";
import { authorizationUrl, checkAnswer } from "../../../../src/plugins/routes/catalog-page/pkce.js";

const ISSUER: AuthorizationServer = {
  issuer: "https://idp.example.com",
  authorization_endpoint: "https://idp.example.com/authorize",
  token_endpoint: "https://idp.example.com/token",
};
const STATE = "the-state-kept-in-the-sign-in-cookie";

describe("the authorization request", () => {
  it("asks for a code with the S256 challenge, the state and the redirect URI", async () => {
    const url = await authorizationUrl({
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
      // RFC 7636's own example (appendix B).
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
      resource: "https://skills.example.com/mcp",
    });
    expect(url.searchParams.has("code_verifier")).toBe(false);
  });

  it("leaves out scope and resource when there are none", async () => {
    const url = await authorizationUrl({
      authorizationEndpoint: ISSUER.authorization_endpoint!,
      clientId: "c",
      redirectUri: "https://s/cb",
      scopes: [],
      state: "s",
      verifier: "v".repeat(43),
    });
    expect(url.searchParams.has("scope")).toBe(false);
    expect(url.searchParams.has("resource")).toBe(false);
  });
});

describe("the issuer's answer", () => {
  const check = (fields: Record<string, string>, issuer: AuthorizationServer = ISSUER) =>
    checkAnswer(issuer, "catalog-page", new URLSearchParams(fields), STATE);

  it("passes a code with the kept state, and an iss that is the issuer's own", () => {
    for (const fields of [
      { code: "c0de", state: STATE },
      { code: "c0de", state: STATE, iss: ISSUER.issuer },
    ] as Record<string, string>[]) {
      const passed = check(fields);
      expect(passed).toBeInstanceOf(URLSearchParams);
      expect((passed as URLSearchParams).get("code")).toBe("c0de");
    }
  });

  it("refuses another state, a missing or empty one, with 400", () => {
    for (const fields of [
      { code: "c0de", state: `${STATE}x` },
      { code: "c0de", state: STATE.slice(1) },
      { code: "c0de" },
      { code: "c0de", state: "" },
    ] as Record<string, string>[]) {
      expect(check(fields), JSON.stringify(fields)).toEqual({
        status: 400,
        refused: expect.stringMatching(/^The answer is not for the sign-in this browser started \(.*"state".*\)\.$/),
      });
    }
  });

  it("refuses an iss naming another issuer, or none when the issuer says it sends one (RFC 9207)", () => {
    for (const iss of ["https://evil.example", `${ISSUER.issuer}/`]) {
      expect(check({ code: "c0de", state: STATE, iss })).toEqual({
        status: 400,
        refused: expect.stringContaining('"iss"'),
      });
    }
    expect(
      check({ code: "c0de", state: STATE }, { ...ISSUER, authorization_response_iss_parameter_supported: true }),
    ).toEqual({ status: 400, refused: expect.stringContaining('"iss"') });
  });

  it("says the issuer refused, with its words, and refuses an answer without a code", () => {
    expect(check({ state: STATE, error: "access_denied", error_description: "the user said no" })).toEqual({
      status: 401,
      refused: "The issuer did not sign you in: access_denied (the user said no).",
    });
    expect(check({ state: STATE, error: "access_denied" })).toEqual({
      status: 401,
      refused: "The issuer did not sign you in: access_denied.",
    });
    expect(check({ state: STATE })).toEqual({ status: 400, refused: "The issuer's answer holds no code." });
    expect(check({ state: STATE, code: "" })).toEqual({ status: 400, refused: "The issuer's answer holds no code." });
    // A hybrid-flow answer is not a code answer.
    expect(check({ state: STATE, code: "c0de", id_token: "x" })).toMatchObject({ status: 400 });
  });
});
