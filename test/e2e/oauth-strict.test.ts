import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importJWK, SignJWT, type JWK } from "jose";
import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";
import { startHttpServer, type HttpServerProcess } from "../helpers/http-server.js";

/**
 * What sign-in refuses and accepts at its edges, through the bundle against a real OIDC server on
 * loopback with two RS256 keys: claims jose leaves to its caller, the Authorization header's form,
 * the leeway on both sides, a token without `kid`, an issuer whose key set is not there, the
 * metadata's caching, and a 2025-11-25 session whose caller's token changed.
 */
const AUDIENCE = "https://skills.example.com/mcp";

let idp: OAuth2Server;
let second: JWK;
let server: HttpServerProcess;
let dir: string;

const skill = (name: string, body: string) => `---\nname: ${name}\ndescription: ${body}\n---\n\n# ${name}\n\n${body}\n`;

function token(claims: Record<string, unknown> = {}, options: { expiresIn?: number } = {}): Promise<string> {
  return idp.issuer.buildToken({
    ...options,
    scopesOrTransform: (_header, payload) =>
      Object.assign(payload, { sub: "ada", aud: AUDIENCE, scope: "skills:read", ...claims }),
  });
}

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
});

function post(url: URL, authorization: string | undefined, body = INITIALIZE, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: "POST",
    headers: { ...HEADERS, ...headers, ...(authorization !== undefined && { authorization }) },
    body,
  });
}

beforeAll(async () => {
  idp = new OAuth2Server();
  await idp.issuer.keys.generate("RS256", { kid: "k1" });
  second = (await idp.issuer.keys.generate("RS256", { kid: "k2" })) as JWK;
  await idp.start(0, "127.0.0.1");
  dir = await mkdtemp(join(tmpdir(), "sk-oauth-strict-"));
  await mkdir(join(dir, "team/deploy"), { recursive: true });
  await mkdir(join(dir, "public/handbook"), { recursive: true });
  await writeFile(join(dir, "team/deploy/SKILL.md"), skill("deploy", "Ship the platform services."));
  await writeFile(join(dir, "public/handbook/SKILL.md"), skill("handbook", "The company handbook."));
  const config = {
    plugins: [
      [
        "fs",
        {
          roots: [
            { path: "team", source: "team", visibleTo: { claims: { groups: ["platform"] } } },
            { path: "public", source: "public" },
          ],
        },
      ],
      "list-skills",
      ["http", { oauth: { issuer: idp.issuer.url, audience: AUDIENCE, jwksCooldownMs: 0 } }],
    ],
  };
  await writeFile(join(dir, "skills.config.json"), JSON.stringify(config));
  server = await startHttpServer(["--config", join(dir, "skills.config.json")]);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await idp?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("sign-in, strictly", () => {
  it("refuses a sub that is not a non-empty string, an iat in the future, and a header with more than one token", async () => {
    const valid = await token();
    const refused = {
      "sub a number": await token({ sub: 42 }),
      "sub empty": await token({ sub: "" }),
      "sub an object": await token({ sub: { id: "ada" } }),
      "iat an hour ahead": await token({ iat: Math.floor(Date.now() / 1000) + 3600 }),
      "a token and junk": `Bearer ${valid} junk`,
      "two tokens": `Bearer ${valid} ${valid}`,
    };
    for (const [why, bearer] of Object.entries(refused)) {
      const response = await post(server.mcpUrl, bearer.startsWith("Bearer ") ? bearer : `Bearer ${bearer}`);
      expect(response.status, why).toBe(401);
      expect(response.headers.get("www-authenticate"), why).toContain('error="invalid_token"');
    }
    expect((await post(server.mcpUrl, `Bearer ${valid}`)).status).toBe(200);
    expect((await post(server.mcpUrl, `bearer  ${valid} `)).status).toBe(200);
  });

  it("gives exp the same 30 s of leeway as nbf", async () => {
    expect((await post(server.mcpUrl, `Bearer ${await token({}, { expiresIn: -10 })}`)).status).toBe(200);
    expect((await post(server.mcpUrl, `Bearer ${await token({}, { expiresIn: -60 })}`)).status).toBe(401);
    const now = Math.floor(Date.now() / 1000);
    expect((await post(server.mcpUrl, `Bearer ${await token({ nbf: now + 10 })}`)).status).toBe(200);
    expect((await post(server.mcpUrl, `Bearer ${await token({ nbf: now + 60 })}`)).status).toBe(401);
  });

  it("verifies a token without kid against each of the issuer's keys", async () => {
    const signed = await new SignJWT({ sub: "ada", aud: AUDIENCE, scope: "skills:read" })
      .setProtectedHeader({ alg: "RS256" })
      .setIssuer(idp.issuer.url!)
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(await importJWK(second, "RS256"));
    expect((await post(server.mcpUrl, `Bearer ${signed}`)).status).toBe(200);
    const [head, body] = signed.split(".");
    expect((await post(server.mcpUrl, `Bearer ${head}.${body}.${"A".repeat(342)}`)).status).toBe(401);
  });

  it("keeps the metadata out of shared caches while its resource echoes the request's Host", async () => {
    const response = await fetch(new URL("/.well-known/oauth-protected-resource/mcp", server.origin));
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("answers a 2025-11-25 session only while the token says what it said when the session opened", async () => {
    const member = await token({ groups: ["platform"] });
    const opened = await post(server.mcpUrl, `Bearer ${member}`);
    const session = { "mcp-session-id": opened.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-11-25" };
    const list = (bearer: string) =>
      post(
        server.mcpUrl,
        `Bearer ${bearer}`,
        JSON.stringify({
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "list_skills", arguments: { format: "json" } },
        }),
        session,
      );
    const first = await list(member);
    expect(first.status).toBe(200);
    expect(await first.text()).toContain("Ship the platform services.");
    // The same subject, out of the group now: the session is gone for it, and a new one shows the public skills alone.
    const left = await token({ groups: ["sales"] });
    expect((await list(left)).status).toBe(404);
    const reopened = await post(server.mcpUrl, `Bearer ${left}`);
    const fresh = { "mcp-session-id": reopened.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-11-25" };
    const call = JSON.stringify({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "list_skills", arguments: { format: "json" } },
    });
    const now = await (await post(server.mcpUrl, `Bearer ${left}`, call, fresh)).text();
    expect(now).toContain("The company handbook.");
    expect(now).not.toContain("Ship the platform services.");
  });
});

describe("an issuer whose key set is not there", () => {
  let issuer: FixtureServer;
  let broken: HttpServerProcess;
  beforeAll(async () => {
    issuer = await startFixtureServer();
    issuer.set("/.well-known/openid-configuration", {
      body: JSON.stringify({ issuer: issuer.url, jwks_uri: `${issuer.url}/jwks` }),
      headers: { "content-type": "application/json" },
    });
    const config = {
      plugins: [
        ["fs", { roots: [join(dir, "public")] }],
        "list-skills",
        ["http", { oauth: { issuer: issuer.url, audience: AUDIENCE, jwksCooldownMs: 0 } }],
      ],
    };
    await writeFile(join(dir, "broken.config.json"), JSON.stringify(config));
    broken = await startHttpServer(["--config", join(dir, "broken.config.json")]);
  }, 60_000);
  afterAll(async () => {
    await broken?.stop();
    await issuer?.close();
  });

  it("answers 503 with Retry-After, not 401, when the key set answers 404 or no JSON", async () => {
    for (const answer of [undefined, { body: "<html>down</html>" }]) {
      if (answer) issuer.set("/jwks", answer);
      const response = await post(broken.mcpUrl, `Bearer ${await token()}`);
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("5");
    }
  });
});
