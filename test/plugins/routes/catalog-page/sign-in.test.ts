import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKernel, type SkillsKernel } from "../../../../src/create-kernel.js";
import type { PluginEntry } from "../../../../src/kernel/config.js";
import { createHttpHandler, type HttpHandler } from "../../../../src/plugins/transports/http/index.js";

/**
 * The page's sign-in in process: a kernel serving the catalog page behind OAuth (a real issuer on
 * loopback, oauth2-mock-server) or a static token, asked through its HTTP handler as a browser
 * would, with a cookie jar. `team` is for the platform group alone.
 */
const AUDIENCE = "https://skills.example.com/mcp";
const SCOPE = "skills:read";
const TOKEN = "a-static-token-of-some-length";
const SECRET = "the catalog page's session secret, 32+ chars";
const ORIGIN = "http://127.0.0.1";

let idp: OAuth2Server;
let dir: string;
let user: { sub: string; groups: string[] } = { sub: "ada", groups: ["platform"] };
const kernels: SkillsKernel[] = [];

const skill = (name: string, body: string) =>
  `---\nname: ${name}\ndescription: ${body}\n---\n\n# ${name}\n\n${body}\n\nSee [the forms](forms.md).\n`;

async function serve(http: Record<string, unknown>, page: Record<string, unknown> = {}): Promise<HttpHandler> {
  const plugins: PluginEntry[] = [
    [
      "fs",
      {
        roots: [
          { path: "team", source: "team", visibleTo: { claims: { groups: ["platform"] } } },
          { path: "public", source: "public" },
        ],
      },
    ],
    "rest-api",
    ["catalog-page", { sessionSecret: SECRET, ...page }],
    ["http", http],
  ];
  const kernel = await createKernel({ config: { plugins }, baseDir: dir });
  kernels.push(kernel);
  return createHttpHandler(kernel);
}

/** A browser's cookie jar over the handler: what Set-Cookie sets, sent back on each request. */
function browser(handler: HttpHandler) {
  const jar = new Map<string, string>();
  const setCookies: string[] = [];
  return {
    jar,
    setCookies,
    async go(path: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
      const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
      const response = await handler.fetch(
        new Request(new URL(path, ORIGIN), {
          ...init,
          headers: { host: "127.0.0.1", ...(cookie && { cookie }), ...init.headers },
        }),
      );
      for (const line of response.headers.getSetCookie()) {
        setCookies.push(line);
        const [pair] = line.split(";");
        const at = pair!.indexOf("=");
        const [name, value] = [pair!.slice(0, at), pair!.slice(at + 1)];
        if (/Max-Age=0\b/.test(line)) jar.delete(name);
        else jar.set(name, value);
      }
      return response;
    },
  };
}

/** Through the issuer and back: the callback's answer. */
async function signInWithIssuer(b: ReturnType<typeof browser>, alter: (callback: URL) => void = () => undefined) {
  const start = await b.go("/sign-in/oauth");
  expect(start.status).toBe(303);
  const authorize = new URL(start.headers.get("location")!);
  const atIssuer = await fetch(authorize, { redirect: "manual" });
  const callback = new URL(atIssuer.headers.get("location")!);
  alter(callback);
  return { authorize, response: await b.go(callback.pathname + callback.search) };
}

beforeAll(async () => {
  idp = new OAuth2Server();
  await idp.issuer.keys.generate("RS256");
  await idp.start(0, "127.0.0.1");
  idp.service.on("beforeTokenSigning", (token: { payload: Record<string, unknown> }) => {
    // The ID token (its aud the page's client) stays as the issuer made it: oauth4webapi checks it.
    if (token.payload.aud === "catalog-page") return;
    Object.assign(token.payload, { sub: user.sub, aud: AUDIENCE, scope: SCOPE, groups: user.groups });
  });
  dir = await mkdtemp(join(tmpdir(), "sk-page-sign-in-"));
  for (const [root, name, body] of [
    ["team", "deploy", "Ship the platform."],
    ["team", "handbook", "The platform team's handbook."],
    ["public", "handbook", "The company handbook."],
  ] as const) {
    await mkdir(join(dir, root, name, "references"), { recursive: true });
    await writeFile(join(dir, root, name, "SKILL.md"), skill(name, body));
    await writeFile(
      join(dir, root, name, "forms.md"),
      `# Forms of ${name}\n\n<script>alert(1)</script>\n\n[back](references/notes.txt)\n`,
    );
    await writeFile(join(dir, root, name, "references", "notes.txt"), "1 < 2 & <b>not bold</b>\n");
    await writeFile(join(dir, root, name, "logo.bin"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0xff, 0xfe]));
    await writeFile(join(dir, root, name, ".env"), "SECRET=1\n");
  }
}, 60_000);

afterAll(async () => {
  for (const kernel of kernels.splice(0)) await kernel.close();
  await idp?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("the catalog page behind OAuth", () => {
  let handler: HttpHandler;
  beforeAll(async () => {
    handler = await serve(
      { oauth: { issuer: idp.issuer.url, audience: AUDIENCE, requiredScopes: [SCOPE], jwksCooldownMs: 0 } },
      { oauthClientId: "catalog-page" },
    );
  });

  it("sends a browser without a session to sign in, through the issuer with PKCE and state, and back to what its user may see", async () => {
    user = { sub: "ada", groups: ["platform"] };
    const b = browser(handler);
    expect((await b.go("/")).headers.get("location")).toBe("./sign-in");
    expect(await (await b.go("/sign-in")).text()).toContain('href="./sign-in/oauth"');
    const { authorize, response } = await signInWithIssuer(b);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      response_type: "code",
      client_id: "catalog-page",
      redirect_uri: `${ORIGIN}/sign-in/callback`,
      scope: SCOPE,
      code_challenge_method: "S256",
      resource: AUDIENCE,
    });
    expect(authorize.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("../");
    const session = b.setCookies.find((line) => line.startsWith("skills_session=") && !line.includes("Max-Age=0"))!;
    expect(session).toMatch(/; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    expect(b.jar.has("skills_sign_in")).toBe(false);
    const list = await (await b.go("/")).text();
    expect(list).toContain("Signed in: ada");
    expect(list).toContain('href="skill/team%3Adeploy/"');
  });

  it("makes cookies Secure and the redirect URI https when served over HTTPS, or a trusted proxy says so", async () => {
    const direct = await handler.fetch(
      new Request("https://127.0.0.1/sign-in/oauth", { headers: { host: "127.0.0.1" } }),
    );
    expect(direct.headers.getSetCookie()[0]).toMatch(
      /^skills_sign_in=[^;]+; Path=\/; Max-Age=600; HttpOnly; SameSite=Lax; Secure$/,
    );
    expect(new URL(direct.headers.get("location")!).searchParams.get("redirect_uri")).toBe(
      "https://127.0.0.1/sign-in/callback",
    );
    const proxied = new Request(`${ORIGIN}/sign-in/oauth`, {
      headers: { host: "127.0.0.1", "x-forwarded-proto": "https" },
    });
    // Not trusted unless configured: the proxy's word is anyone's.
    expect((await handler.fetch(proxied.clone())).headers.getSetCookie()[0]).not.toContain("Secure");
    const behindProxy = await serve(
      { oauth: { issuer: idp.issuer.url, audience: AUDIENCE, requiredScopes: [SCOPE] } },
      { oauthClientId: "catalog-page", trustForwardedProto: true },
    );
    const trusted = await behindProxy.fetch(proxied);
    expect(trusted.headers.getSetCookie()[0]).toMatch(/; Secure$/);
    expect(new URL(trusted.headers.get("location")!).searchParams.get("redirect_uri")).toBe(
      "https://127.0.0.1/sign-in/callback",
    );
  });

  it("says sign-in is not set up without the page's OAuth client id", async () => {
    const noClient = await serve({ oauth: { issuer: idp.issuer.url, audience: AUDIENCE } });
    const b = browser(noClient);
    const response = await b.go("/sign-in");
    expect(response.status).toBe(503);
    expect(await response.text()).toContain("<code>oauthClientId</code>");
    expect((await b.go("/sign-in/oauth")).headers.get("location")).toBe("../sign-in");
  });

  it("shows each user what their token may see", async () => {
    user = { sub: "bob", groups: ["sales"] };
    const b = browser(handler);
    await signInWithIssuer(b);
    const list = await (await b.go("/")).text();
    expect(list).toContain("Signed in: bob");
    expect(list).not.toContain("deploy");
    expect((await b.go("/skill/team%3Adeploy/")).status).toBe(404);
    expect((await b.go("/skill/team%3Adeploy/forms.md")).status).toBe(404);
    // One handbook in bob's view: its plain name is unique there.
    expect(await (await b.go("/skill/handbook/")).text()).toContain("public:handbook");
  });

  it("refuses an answer whose state is not the one kept, from another issuer, or that this browser never asked for", async () => {
    user = { sub: "ada", groups: ["platform"] };
    const wrong = browser(handler);
    const { response } = await signInWithIssuer(wrong, (callback) => callback.searchParams.set("state", "forged"));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(
      "The answer is not for the sign-in this browser started (unexpected &#34;state&#34;",
    );
    expect(wrong.jar.has("skills_session")).toBe(false);
    // RFC 9207: an answer naming another issuer is a mix-up.
    const mixedUp = browser(handler);
    const { response: otherIssuer } = await signInWithIssuer(mixedUp, (callback) =>
      callback.searchParams.set("iss", "https://evil.example"),
    );
    expect(otherIssuer.status).toBe(400);
    expect(await otherIssuer.text()).toContain("unexpected &#34;iss&#34;");
    expect(mixedUp.jar.has("skills_session")).toBe(false);
    const missing = browser(handler);
    const { response: lost } = await signInWithIssuer(missing, () => missing.jar.clear());
    expect(lost.status).toBe(400);
    expect(missing.jar.has("skills_session")).toBe(false);
    const refused = browser(handler);
    const { response: denied } = await signInWithIssuer(refused, (callback) => {
      callback.searchParams.delete("code");
      callback.searchParams.set("error", "access_denied");
    });
    expect(denied.status).toBe(401);
    expect(await denied.text()).toContain("access_denied");
  });

  it("refuses a forged, changed or misused cookie, and never takes one for MCP or the REST API", async () => {
    user = { sub: "ada", groups: ["platform"] };
    const b = browser(handler);
    await signInWithIssuer(b);
    const sealed = b.jar.get("skills_session")!;
    const forged = browser(handler);
    for (const value of [
      `${sealed.slice(0, -4)}AAAA`,
      "eyJhbGciOiJub25lIn0.e30.",
      sealed.replace(/\.[^.]+\./, ".AAAA."),
      "ada",
    ]) {
      forged.jar.set("skills_session", value);
      const response = await forged.go("/");
      expect(response.status, value).toBe(401);
      expect(await response.text()).not.toContain("deploy");
      expect(forged.jar.has("skills_session")).toBe(false);
    }
    // A sign-in cookie is sealed for another use.
    const starting = browser(handler);
    await starting.go("/sign-in/oauth");
    forged.jar.set("skills_session", starting.jar.get("skills_sign_in")!);
    expect((await forged.go("/")).status).toBe(401);
    const mcp = await b.go("/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "0" } },
      }),
    });
    expect(mcp.status).toBe(401);
    expect((await b.go("/v1/skills")).status).toBe(401);
  });

  it("signs out with the page's own form only", async () => {
    const b = browser(handler);
    await signInWithIssuer(b);
    const tag = /name="csrf" value="([^"]+)"/.exec(await (await b.go("/")).text())![1]!;
    const post = (body: string, headers: Record<string, string> = {}) =>
      b.go("/sign-out", {
        method: "POST",
        body,
        headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN, ...headers },
      });
    expect((await post("csrf=wrong")).status).toBe(403);
    expect((await post(`csrf=${encodeURIComponent(tag)}`, { origin: "http://evil.example" })).status).toBe(403);
    expect(b.jar.has("skills_session")).toBe(true);
    const out = await post(`csrf=${encodeURIComponent(tag)}`);
    // Then to the issuer's end-session endpoint, which sends the browser back to sign in.
    const atIssuer = new URL(/^0; url=(.+)$/.exec(out.headers.get("refresh") ?? "")![1]!);
    expect(out.status).toBe(200);
    expect(atIssuer.href.startsWith(`${idp.issuer.url}/endsession?`)).toBe(true);
    expect(Object.fromEntries(atIssuer.searchParams)).toEqual({
      client_id: "catalog-page",
      post_logout_redirect_uri: `${ORIGIN}/sign-in`,
    });
    expect(b.jar.has("skills_session")).toBe(false);
    expect((await b.go("/")).status).toBe(303);
    expect((await fetch(atIssuer, { redirect: "manual" })).headers.get("location")).toBe(`${ORIGIN}/sign-in`);
  });

  it("serves a skill by its unique plain name, lists the candidates of a shared one, and serves its files", async () => {
    user = { sub: "ada", groups: ["platform"] };
    const b = browser(handler);
    await signInWithIssuer(b);
    expect((await b.go("/skill/deploy")).headers.get("location")).toBe("./deploy/");
    const page = await (await b.go("/skill/deploy/")).text();
    expect(page).toContain('href="forms.md"');
    expect(page).toContain('<a href="references/notes.txt">references/notes.txt</a>');
    expect(page).not.toContain(".env");
    const shared = await b.go("/skill/handbook/");
    expect(shared.status).toBe(300);
    const candidates = await shared.text();
    expect(candidates).toContain('href="../../skill/team%3Ahandbook/"');
    expect(candidates).toContain('href="../../skill/public%3Ahandbook/"');
    const forms = await b.go("/skill/team%3Adeploy/forms.md");
    expect(forms.headers.get("content-security-policy")).toMatch(/^default-src 'none'/);
    const formsPage = await forms.text();
    expect(formsPage).toContain("<h1>Forms of deploy</h1>");
    expect(formsPage).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(formsPage).toContain('href="references/notes.txt"');
    expect(await (await b.go("/skill/deploy/references/notes.txt")).text()).toContain(
      "<pre>1 &#60; 2 &#38; &#60;b&#62;not bold&#60;/b&#62;\n</pre>",
    );
    const binary = await (await b.go("/skill/deploy/logo.bin")).text();
    expect(binary).toContain("A binary file: not shown here.");
    const download = await b.go("/skill/deploy/logo.bin?download");
    expect(download.headers.get("content-type")).toBe("application/octet-stream");
    expect(download.headers.get("content-disposition")).toBe("attachment; filename*=UTF-8''logo.bin");
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0xff, 0xfe]),
    );
    for (const path of [
      "/skill/deploy/.env",
      "/skill/deploy/%2e%2e%2fhandbook%2fSKILL.md",
      "/skill/deploy/..%2fhandbook%2fSKILL.md",
      "/skill/deploy/%2fetc%2fpasswd",
      "/skill/deploy/references%2f..%2f..%2fhandbook%2fSKILL.md",
      "/skill/deploy/%252e%252e/x",
      "/skill/deploy/nope.md",
    ]) {
      const response = await b.go(path);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).toContain("Not served:");
    }
    expect((await b.go("/skill/deploy/SKILL.md")).headers.get("location")).toBe("./");
  });
});

describe("the catalog page behind a static token", () => {
  let handler: HttpHandler;
  beforeAll(async () => {
    handler = await serve({ authToken: TOKEN });
  });

  async function form(b: ReturnType<typeof browser>) {
    const page = await (await b.go("/sign-in")).text();
    return /name="csrf" value="([^"]+)"/.exec(page)![1]!;
  }
  const post = (b: ReturnType<typeof browser>, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    b.go("/sign-in", {
      method: "POST",
      body: new URLSearchParams(fields).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN, ...headers },
    });

  it("signs in with the token through its form, and the session shows the catalog", async () => {
    const b = browser(handler);
    expect((await b.go("/")).status).toBe(303);
    const csrf = await form(b);
    expect((await post(b, { csrf, token: "not the token at all" })).status).toBe(401);
    expect(b.jar.has("skills_session")).toBe(false);
    const signedIn = await post(b, { csrf, token: TOKEN });
    expect(signedIn.status).toBe(303);
    expect(b.jar.get("skills_session")).not.toContain(TOKEN);
    const list = await (await b.go("/")).text();
    expect(list).toContain("Signed in: the server&#39;s token");
    // The token names no caller: what anyone signed in may see, no team's source.
    expect(list).toContain('href="skill/public%3Ahandbook/"');
    expect(list).not.toContain("deploy");
    // The bearer header still works on the page, and the cookie still not on MCP.
    expect(
      (
        await handler.fetch(
          new Request(`${ORIGIN}/`, { headers: { host: "127.0.0.1", authorization: `Bearer ${TOKEN}` } }),
        )
      ).status,
    ).toBe(200);
    expect((await b.go("/v1/skills")).status).toBe(401);
    // Signing out has no issuer to visit: straight back to sign in.
    const tag = /name="csrf" value="([^"]+)"/.exec(list)![1]!;
    const out = await b.go("/sign-out", {
      method: "POST",
      body: `csrf=${encodeURIComponent(tag)}`,
      headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
    });
    expect(out.headers.get("location")).toBe("./sign-in");
    expect(b.jar.has("skills_session")).toBe(false);
  });

  it("refuses a post from another site's form, or without the form's token", async () => {
    const b = browser(handler);
    const csrf = await form(b);
    expect(
      (await post(b, { csrf, token: TOKEN }, { origin: "http://evil.example", "sec-fetch-site": "cross-site" })).status,
    ).toBe(403);
    expect((await post(b, { token: TOKEN })).status).toBe(403);
    expect((await post(b, { csrf: `${csrf}x`, token: TOKEN })).status).toBe(403);
    const other = browser(handler);
    // Another browser's form token is no good without that browser's nonce cookie.
    expect((await post(other, { csrf, token: TOKEN })).status).toBe(403);
    expect(b.jar.has("skills_session") || other.jar.has("skills_session")).toBe(false);
  });
});

describe("the catalog page without auth", () => {
  it("needs no sign-in and has none", async () => {
    const handler = await serve({});
    const b = browser(handler);
    expect((await b.go("/")).status).toBe(200);
    expect((await b.go("/sign-in")).status).toBe(404);
    expect(b.jar.size).toBe(0);
  });
});
