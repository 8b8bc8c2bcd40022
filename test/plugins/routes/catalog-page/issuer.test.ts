import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  endSessionUrl,
  exchangeCode,
  type IssuerMetadata,
  issuerMetadata,
  SignInError,
} from "../../../../src/plugins/routes/catalog-page/issuer.js";
import { checkAnswer } from "../../../../src/plugins/routes/catalog-page/pkce.js";

/** The code exchange against a real issuer on loopback (oauth2-mock-server), and where it may go. */
let idp: OAuth2Server;

beforeAll(async () => {
  idp = new OAuth2Server();
  await idp.issuer.keys.generate("RS256");
  await idp.start(0, "127.0.0.1");
});

afterAll(async () => {
  await idp?.stop();
});

/** An exchange of a code the issuer never gave, its answer checked as the callback checks it. */
function exchangeOf(issuer: IssuerMetadata) {
  const callback = checkAnswer(issuer, "catalog-page", new URLSearchParams({ code: "never-issued", state: "s" }), "s");
  if (!(callback instanceof URLSearchParams)) throw new Error(callback.refused);
  return {
    clientId: "catalog-page",
    callback,
    verifier: "v".repeat(43),
    redirectUri: "https://skills.example.com/sign-in/callback",
  };
}

describe("the issuer's metadata and the code exchange", () => {
  it("reads the issuer's endpoints, and says why an unknown code is refused in the issuer's words", async () => {
    const issuer = await issuerMetadata(idp.issuer.url!)();
    expect(issuer.token_endpoint).toBe(`${idp.issuer.url}/token`);
    const refused = exchangeCode(issuer, exchangeOf(issuer));
    await expect(refused).rejects.toBeInstanceOf(SignInError);
    await expect(refused).rejects.toThrow(/^the issuer refused the code: /);
  });

  it("sends the code over plain http to a loopback address only", async () => {
    const issuer = await issuerMetadata(idp.issuer.url!)();
    // Refused before any request: the host need not exist.
    for (const token_endpoint of ["http://idp.example.invalid/token", "http://10.0.0.1/token"]) {
      const elsewhere = { ...issuer, token_endpoint };
      await expect(exchangeCode(elsewhere, exchangeOf(elsewhere)), token_endpoint).rejects.toThrow(
        /^the issuer's token answer is not accepted: only requests to HTTPS are allowed$/,
      );
    }
  });

  it("says so when the issuer cannot be reached, and asks again next time", async () => {
    const later = new OAuth2Server();
    await later.issuer.keys.generate("RS256");
    await later.start(0, "127.0.0.1");
    const url = later.issuer.url!;
    await later.stop();
    const metadata = issuerMetadata(url);
    await expect(metadata()).rejects.toThrow(SignInError);
    await later.start(Number(new URL(url).port), "127.0.0.1");
    try {
      expect((await metadata()).issuer).toBe(url);
    } finally {
      await later.stop();
    }
  });

  it("sends a signed-out browser to the issuer's end-session endpoint when it names an http(s) one", async () => {
    const issuer = await issuerMetadata(idp.issuer.url!)();
    const back = "https://skills.example.com/sign-in";
    const url = endSessionUrl(issuer, "catalog-page", back)!;
    expect(url.href.startsWith(`${idp.issuer.url}/endsession?`)).toBe(true);
    expect(Object.fromEntries(url.searchParams)).toEqual({ client_id: "catalog-page", post_logout_redirect_uri: back });
    const without = { ...issuer, end_session_endpoint: undefined };
    expect(endSessionUrl(without, "catalog-page", back)).toBeUndefined();
    expect(
      endSessionUrl({ ...issuer, end_session_endpoint: "javascript:alert(1)" }, "catalog-page", back),
    ).toBeUndefined();
  });
});
