import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OAuth2Server } from "oauth2-mock-server";
import { chromium, type Browser, type BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findChromium } from "../helpers/chromium.js";
import { startHttpServer, type HttpServerProcess } from "../helpers/http-server.js";

/**
 * The catalog page's sign-in in headless Chromium, through the bundle, against a real OAuth
 * issuer on loopback (oauth2-mock-server): the authorization-code flow with PKCE, a session
 * cookie, per-team visibility, sign-out, a forged cookie, and MCP still taking no cookie.
 */
const CHROMIUM = await findChromium();
const AUDIENCE = "https://skills.example.com/mcp";
const SCOPE = "skills:read";

const skill = (name: string, body: string) =>
  `---\nname: ${name}\ndescription: ${body}\n---\n\n# ${name}\n\n${body} See [the forms](forms.md).\n`;

describe.skipIf(!CHROMIUM.path)(
  `catalog page sign-in in headless Chromium, through the bundle${CHROMIUM.reason ? ` (skipped: ${CHROMIUM.reason})` : ""}`,
  () => {
    let idp: OAuth2Server;
    let tmp: string;
    let server: HttpServerProcess;
    let browser: Browser;
    let user = { sub: "ada", groups: ["platform"] };

    beforeAll(async () => {
      idp = new OAuth2Server();
      await idp.issuer.keys.generate("RS256");
      await idp.start(0, "127.0.0.1");
      idp.service.on("beforeTokenSigning", (token: { payload: Record<string, unknown> }) => {
        // The ID token (its aud the page's client) stays as the issuer made it: oauth4webapi checks it.
        if (token.payload.aud === "skills-catalog-page") return;
        Object.assign(token.payload, { sub: user.sub, aud: AUDIENCE, scope: SCOPE, groups: user.groups });
      });
      tmp = await mkdtemp(join(tmpdir(), "sk-page-sign-in-e2e-"));
      for (const [root, name, body] of [
        ["team", "deploy", "Ship the platform."],
        ["public", "handbook", "The company handbook."],
      ] as const) {
        await mkdir(join(tmp, root, name), { recursive: true });
        await writeFile(join(tmp, root, name, "SKILL.md"), skill(name, body));
        await writeFile(join(tmp, root, name, "forms.md"), `# Forms of ${name}\n\nFill them in.\n`);
      }
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
          "rest-api",
          ["catalog-page", { oauthClientId: "skills-catalog-page" }],
          [
            "http",
            { oauth: { issuer: idp.issuer.url, audience: AUDIENCE, requiredScopes: [SCOPE], jwksCooldownMs: 0 } },
          ],
        ],
      };
      await writeFile(join(tmp, "skills.config.json"), JSON.stringify(config));
      server = await startHttpServer(["--config", join(tmp, "skills.config.json")]);
      browser = await chromium.launch({ executablePath: CHROMIUM.path, args: ["--no-sandbox"] });
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      await idp?.stop();
      if (tmp) await rm(tmp, { recursive: true, force: true });
    });

    /** A fresh browser profile, signed in as `who` through the issuer. */
    async function signedIn(who: { sub: string; groups: string[] }): Promise<BrowserContext> {
      user = who;
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(new URL("/", server.origin).href);
      expect(new URL(page.url()).pathname).toBe("/sign-in");
      await page.getByRole("link", { name: /^Sign in with / }).click();
      await page.waitForURL(new URL("/", server.origin).href);
      await page.close();
      return context;
    }

    it("signs in through the issuer and shows the team's skills, with a cookie no script can read", async () => {
      const context = await signedIn({ sub: "ada", groups: ["platform"] });
      try {
        const page = await context.newPage();
        await page.goto(new URL("/", server.origin).href);
        expect(await page.getByText("Signed in: ada").count()).toBe(1);
        expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("2 skills");
        const [session] = (await context.cookies()).filter((cookie) => cookie.name === "skills_session");
        expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", secure: false, path: "/" });
        expect(session!.value).not.toContain(".ey");
        expect(await page.evaluate("document.cookie")).toBe("");
        // The team's skill, and the relative link in its SKILL.md to one of its files.
        await page.getByRole("link", { name: "deploy" }).click();
        await page.waitForURL(/\/skill\/team%3Adeploy\/$/);
        await page.getByRole("link", { name: "the forms" }).click();
        await page.waitForURL(/\/skill\/team%3Adeploy\/forms\.md$/);
        expect(await page.locator("article h1").textContent()).toBe("Forms of deploy");
        // By its plain name too.
        expect((await page.goto(new URL("/skill/deploy/", server.origin).href))!.status()).toBe(200);
      } finally {
        await context.close();
      }
    });

    it("shows another team's member only what their token may see", async () => {
      const context = await signedIn({ sub: "bob", groups: ["sales"] });
      try {
        const page = await context.newPage();
        await page.goto(new URL("/", server.origin).href);
        expect(await page.getByText("Signed in: bob").count()).toBe(1);
        expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("1 skill");
        expect(await page.getByRole("link", { name: "deploy" }).count()).toBe(0);
        expect((await page.goto(new URL("/skill/deploy/", server.origin).href))!.status()).toBe(404);
      } finally {
        await context.close();
      }
    });

    it("keeps MCP and the REST API on bearer tokens: the session cookie opens neither", async () => {
      const context = await signedIn({ sub: "ada", groups: ["platform"] });
      try {
        const mcp = await context.request.post(server.mcpUrl.href, {
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
          data: {
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "0" } },
          },
        });
        expect(mcp.status()).toBe(401);
        expect((await context.request.get(new URL("/v1/skills", server.origin).href)).status()).toBe(401);
        // The same request carried the cookie: the page itself still opens with it.
        expect((await context.request.get(new URL("/", server.origin).href)).status()).toBe(200);
      } finally {
        await context.close();
      }
    });

    it("signs out, and a forged or changed cookie is refused", async () => {
      const context = await signedIn({ sub: "ada", groups: ["platform"] });
      try {
        const page = await context.newPage();
        await page.goto(new URL("/", server.origin).href);
        const sealed = (await context.cookies()).find((cookie) => cookie.name === "skills_session")!.value;
        // Through the issuer's end-session endpoint (OpenID RP-initiated logout) and back to sign-in.
        const atIssuer: Record<string, unknown>[] = [];
        idp.service.once(
          "beforePostLogoutRedirect",
          (_redirect: unknown, request: { query: Record<string, unknown> }) => atIssuer.push(request.query),
        );
        await page.getByRole("button", { name: "Sign out" }).click();
        await page.waitForURL(new URL("/sign-in", server.origin).href);
        expect(atIssuer).toEqual([
          { client_id: "skills-catalog-page", post_logout_redirect_uri: new URL("/sign-in", server.origin).href },
        ]);
        expect((await context.cookies()).some((cookie) => cookie.name === "skills_session")).toBe(false);
        await page.goto(new URL("/", server.origin).href);
        expect(new URL(page.url()).pathname).toBe("/sign-in");
        expect(await page.getByRole("link", { name: "deploy" }).count()).toBe(0);
        for (const forged of [
          `${sealed.slice(0, -6)}AAAAAA`,
          "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..AAAA.AAAA.AAAA",
        ]) {
          await context.addCookies([{ name: "skills_session", value: forged, url: server.origin }]);
          const response = await page.goto(new URL("/", server.origin).href);
          expect(response!.status()).toBe(401);
          expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("This sign-in is not valid here.");
          expect(await page.getByRole("link", { name: "deploy" }).count()).toBe(0);
        }
      } finally {
        await context.close();
      }
    });

    it("signs in with the static token through its form (--auth-token), and signs out", async () => {
      const token = "a-static-token-for-the-page";
      const withToken = await startHttpServer(["--skills-dir", join(tmp, "public"), "--ui", "--auth-token", token]);
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.goto(new URL("/", withToken.origin).href);
        expect(new URL(page.url()).pathname).toBe("/sign-in");
        await page.getByLabel("Token").fill("not-the-token-at-all-no");
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.waitForLoadState("load");
        expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("That token is not accepted.");
        await page.getByRole("link", { name: "Sign in" }).click();
        await page.getByLabel("Token").fill(token);
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.waitForURL(new URL("/", withToken.origin).href);
        expect(await page.getByRole("link", { name: "handbook" }).count()).toBe(1);
        const [session] = (await context.cookies()).filter((cookie) => cookie.name === "skills_session");
        expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax" });
        expect(session!.value).not.toContain(token);
        const mcp = await context.request.post(withToken.mcpUrl.href, {
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
          data: {
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "0" } },
          },
        });
        expect(mcp.status()).toBe(401);
        await page.getByRole("button", { name: "Sign out" }).click();
        await page.waitForURL(new URL("/sign-in", withToken.origin).href);
        expect((await context.cookies()).some((cookie) => cookie.name === "skills_session")).toBe(false);
      } finally {
        await context.close();
        await withToken.stop();
      }
    });
  },
);
