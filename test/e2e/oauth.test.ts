import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { exportSPKI, importJWK, SignJWT } from "jose";
import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectHttp, resultText, type Revision } from "../helpers/http-client.js";
import type { Runtime } from "../helpers/cli.js";
import { startHttpServer, type HttpServerProcess } from "../helpers/http-server.js";
import { listAllSkills, requestError } from "../helpers/skills-host.js";

/**
 * Sign-in and per-team visibility through the bundle, against a real OAuth2/OIDC server on
 * loopback (oauth2-mock-server: RS256, JWKS, discovery). `team` is seen by the platform group only
 * and holds a `handbook` of its own, which shadows the public one for members alone.
 */
const AUDIENCE = "https://skills.example.com/mcp";
const SCOPE = "skills:read";

let idp: OAuth2Server;
let server: HttpServerProcess;
let dir: string;

const skill = (name: string, body: string) => `---\nname: ${name}\ndescription: ${body}\n---\n\n# ${name}\n\n${body}\n`;

async function token(
  claims: Record<string, unknown> = {},
  options: { kid?: string; expiresIn?: number } = {},
): Promise<string> {
  return idp.issuer.buildToken({
    ...options,
    scopesOrTransform: (_header, payload) =>
      Object.assign(payload, { sub: "ada", aud: AUDIENCE, scope: SCOPE, ...claims }),
  });
}
const member = () => token({ groups: ["platform"] });
const outsider = () => token({ sub: "bob", groups: ["sales"] });

beforeAll(async () => {
  idp = new OAuth2Server();
  await idp.issuer.keys.generate("RS256", { kid: "k1" });
  await idp.start(0, "127.0.0.1");
  dir = await mkdtemp(join(tmpdir(), "sk-oauth-"));
  await mkdir(join(dir, "team/deploy/scripts"), { recursive: true });
  await mkdir(join(dir, "team/handbook"), { recursive: true });
  await mkdir(join(dir, "public/handbook"), { recursive: true });
  await writeFile(join(dir, "team/deploy/SKILL.md"), skill("deploy", "Ship the platform services to production."));
  await writeFile(join(dir, "team/deploy/scripts/run.sh"), "echo deploy\n");
  await writeFile(join(dir, "team/handbook/SKILL.md"), skill("handbook", "The platform team's own handbook."));
  await writeFile(join(dir, "public/handbook/SKILL.md"), skill("handbook", "The company handbook for everyone."));
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
      "search-skills",
      "read-skill",
      "fetch-skill-files",
      "skill-resources",
      "skills-extension",
      "skill-prompts",
      "rest-api",
      ["http", { oauth: { issuer: idp.issuer.url, audience: AUDIENCE, requiredScopes: [SCOPE], jwksCooldownMs: 0 } }],
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

const post = (bearer?: string) =>
  fetch(server.mcpUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(bearer !== undefined && { authorization: `Bearer ${bearer}` }),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
    }),
  });

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

describe("sign-in", () => {
  it("publishes protected resource metadata naming the issuer, at both well-known paths", async () => {
    for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
      const response = await fetch(new URL(path, server.origin));
      expect(response.status).toBe(200);
      const document = (await response.json()) as Record<string, unknown>;
      expect(document).toMatchObject({
        resource: server.mcpUrl.href,
        authorization_servers: [idp.issuer.url],
        scopes_supported: [SCOPE],
      });
    }
  });

  it("answers 401 with the metadata's URL without a valid token, 403 insufficient_scope without the scope", async () => {
    const [, payload] = (await member()).split(".");
    const valid = await member();
    const [head, body, signature] = valid.split(".");
    const forged = `${head}.${b64({ ...JSON.parse(Buffer.from(body!, "base64url").toString()), groups: ["admins"] })}.${signature}`;
    const none = `${b64({ alg: "none", typ: "JWT", kid: "k1" })}.${payload}.`;
    const publicPem = await exportSPKI(
      (await importJWK(idp.issuer.keys.toJSON()[0]!, "RS256")) as Parameters<typeof exportSPKI>[0],
    );
    const hmac = await new SignJWT({ sub: "ada", aud: AUDIENCE, scope: SCOPE, groups: ["platform"] })
      .setProtectedHeader({ alg: "HS256", kid: "k1" })
      .setIssuer(idp.issuer.url!)
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode(publicPem));
    const refused = {
      "no token": undefined,
      "wrong audience": await token({ aud: "https://other.example.com" }),
      expired: await token({}, { expiresIn: -3600 }),
      "forged signature": forged,
      "alg none": none,
      "HMAC with the public key": hmac,
    };
    for (const [why, bearer] of Object.entries(refused)) {
      const response = await post(bearer);
      expect(response.status, why).toBe(401);
      expect(response.headers.get("www-authenticate"), why).toContain(
        `resource_metadata="${server.origin}/.well-known/oauth-protected-resource/mcp"`,
      );
    }
    const unscoped = await post(await token({ scope: "profile" }));
    expect(unscoped.status).toBe(403);
    expect(unscoped.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    expect((await post(valid)).status).toBe(200);
    expect(server.stderr()).not.toContain(valid);
  });

  it("keeps a 2025-11-25 session to the subject that opened it", async () => {
    const opened = await post(await member());
    const session = opened.headers.get("mcp-session-id")!;
    const list = async (bearer: string) =>
      fetch(server.mcpUrl, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": session,
          "mcp-protocol-version": "2025-11-25",
          authorization: `Bearer ${bearer}`,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
      });
    expect((await list(await outsider())).status).toBe(404);
    expect((await list(await member())).status).toBe(200);
  });

  it("picks up a key the issuer rotated in, without a restart", async () => {
    await idp.issuer.keys.generate("RS256", { kid: "k2" });
    const rotated = await token({ groups: ["platform"] }, { kid: "k2" });
    expect((await post(rotated)).status).toBe(200);
  });
});

/** Everything a caller can reach a skill through, as one caller sees it. */
async function view(client: Client) {
  const list = (await client.callTool({ name: "list_skills", arguments: { format: "json" } })).structuredContent as {
    skills: { id: string; source: string }[];
  };
  const search = (
    await client.callTool({ name: "search_skills", arguments: { query: "ship platform services production deploy" } })
  ).structuredContent as {
    results: { id: string }[];
  };
  const resources = (await client.listResources()).resources.map((resource) => resource.uri);
  const extension = (await listAllSkills(client)).skills.map((entry) => entry.uri);
  const prompts = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
  const completion = (
    await client.complete({ ref: { type: "ref/prompt", name: "skills" }, argument: { name: "skill", value: "" } })
  ).completion.values;
  const handbook = resultText(await client.callTool({ name: "read_skill", arguments: { skill_name: "handbook" } }));
  return {
    list: list.skills.map((s) => `${s.source}:${s.id}`).sort(),
    search: search.results.map((r) => r.id),
    resources,
    extension,
    prompts,
    completion,
    handbook,
  };
}

/** The answers for a skill by a name, with the name made neutral: a hidden skill must answer as an unknown one. */
async function refusals(client: Client, name: string) {
  const neutral = (text: string) => text.replaceAll(name, "NAME");
  const caught = async (request: Promise<unknown>) =>
    neutral(
      String(
        (
          (await request.then(
            () => undefined,
            (error: unknown) => error,
          )) as Error | undefined
        )?.message,
      ),
    );
  return {
    read: neutral(resultText(await client.callTool({ name: "read_skill", arguments: { skill_name: name } }))),
    fetch: neutral(
      resultText(
        await client.callTool({
          name: "fetch_skill_files",
          arguments: { skill_name: name, file_paths: ["scripts/run.sh"] },
        }),
      ),
    ),
    resource: await caught(client.readResource({ uri: `skill://${name}/SKILL.md` })),
    extension: neutral((await requestError(client, "skills/get", { uri: `skill://${name}/SKILL.md` })).message),
    prompt: await caught(client.getPrompt({ name: "skills", arguments: { skill: name } })),
  };
}

describe.each<Revision>(["2026-07-28", "2025-11-25"])("per-team visibility at %s", (revision) => {
  it("shows a member the team's skills and an outsider none of them, through every tool and method", async () => {
    const forMember = await connectHttp(server.mcpUrl, { token: await member(), revision });
    const forOutsider = await connectHttp(server.mcpUrl, { token: await outsider(), revision });
    try {
      const seen = await view(forMember.client);
      expect(seen.list).toEqual(["public:public:handbook", "team:deploy", "team:handbook"]);
      expect(seen.search[0]).toBe("deploy");
      expect(seen.resources).toContain("skill://deploy/SKILL.md");
      expect(seen.extension).toContain("skill://deploy/SKILL.md");
      expect(seen.prompts).toContain("deploy");
      expect(seen.completion).toContain("deploy");
      expect(seen.handbook).toContain("platform team's own handbook");
      expect(
        resultText(
          await forMember.client.callTool({
            name: "fetch_skill_files",
            arguments: { skill_name: "deploy", file_paths: ["scripts/run.sh"] },
          }),
        ),
      ).toContain("echo deploy");

      const hidden = await view(forOutsider.client);
      expect(hidden.list).toEqual(["public:handbook"]);
      expect(hidden.search).not.toContain("deploy");
      for (const part of [hidden.resources, hidden.extension, hidden.prompts, hidden.completion])
        expect(part.join(" ")).not.toContain("deploy");
      // The public handbook answers to its plain name: the hidden one shadows nothing.
      expect(hidden.handbook).toContain("company handbook for everyone");
      expect(await refusals(forOutsider.client, "deploy")).toEqual(await refusals(forOutsider.client, "nosuch"));
      expect((await refusals(forOutsider.client, "team:deploy")).read).toBe(
        (await refusals(forOutsider.client, "zzzz:nosuch")).read,
      );
    } finally {
      await forMember.client.close();
      await forOutsider.client.close();
    }
  });
});

describe("the REST API", () => {
  it("serves each caller what it may see, as private answers", async () => {
    const get = async (path: string, bearer: string) =>
      fetch(new URL(path, server.origin), { headers: { authorization: `Bearer ${bearer}` } });
    const asMember = await get("/v1/skills/deploy", await member());
    expect(asMember.status).toBe(200);
    expect(asMember.headers.get("cache-control")).toBe("private");
    const listing = (await (await get("/v1/skills", await outsider())).json()) as { skills: { id: string }[] };
    expect(listing.skills.map((s) => s.id)).toEqual(["handbook"]);
    const hidden = await get("/v1/skills/deploy", await outsider());
    const unknown = await get("/v1/skills/nosuch", await outsider());
    expect(hidden.status).toBe(404);
    expect(((await hidden.json()) as { error: { message: string } }).error.message.replace("deploy", "NAME")).toBe(
      ((await unknown.json()) as { error: { message: string } }).error.message.replace("nosuch", "NAME"),
    );
  });
});

describe.each<Runtime>(["node24", "bun", "deno"])("on %s", (runtime) => {
  it("checks tokens against the issuer and serves each caller its view", async () => {
    const other = await startHttpServer(["--config", join(dir, "skills.config.json")], { runtime, timeoutMs: 40_000 });
    try {
      const get = (path: string, bearer?: string) =>
        fetch(new URL(path, other.origin), {
          headers: bearer === undefined ? {} : { authorization: `Bearer ${bearer}` },
        });
      const [head, body] = (await member()).split(".");
      expect(JSON.parse(Buffer.from(head!, "base64url").toString())).toMatchObject({ alg: "RS256" });
      expect((await get("/v1/skills")).status).toBe(401);
      expect((await get("/v1/skills", `${b64({ alg: "none", typ: "JWT" })}.${body}.`)).status).toBe(401);
      expect((await get("/v1/skills/deploy", await member())).status).toBe(200);
      expect((await get("/v1/skills/deploy", await outsider())).status).toBe(404);
    } finally {
      await other.stop();
    }
  }, 60_000);
});
