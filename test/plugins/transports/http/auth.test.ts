import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { SkillsKernel } from "../../../../src/create-kernel.js";
import type { HttpApp } from "../../../../src/plugins/transports/http/app.js";
import { appOf, bootExamples, get, INITIALIZE, post } from "./in-process.js";

const TOKEN = "a-token-of-32-characters-or-more";
/** A JWT's shape; the issuer is never asked about it, since each header here is refused first. */
const JWT = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl";

describe("auth, in process", () => {
  let kernel: SkillsKernel;
  let app: HttpApp | undefined;
  beforeAll(async () => {
    kernel = await bootExamples();
  });
  afterEach(async () => {
    await app?.close(100);
    app = undefined;
  });
  afterAll(async () => {
    await kernel?.close();
  });

  describe("a static token", () => {
    it("refuses a request without it, with a Bearer challenge and no session", async () => {
      app = appOf(kernel, { authToken: TOKEN });
      const response = await post(app, "/mcp", INITIALIZE);
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="skills-kernel"');
      expect(response.headers.get("mcp-session-id")).toBeNull();
      expect(await response.json()).toMatchObject({
        error: { message: "authentication required: send Authorization: Bearer <token>" },
      });
    });

    it("refuses a wrong token as invalid, and never echoes the token", async () => {
      app = appOf(kernel, { authToken: TOKEN });
      const response = await get(app, "/v1/skills", { authorization: `Bearer ${TOKEN}x` });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="skills-kernel", error="invalid_token"');
      const body = await response.text();
      expect(body).toContain("invalid token");
      expect(body).not.toContain(TOKEN);
    });

    it("refuses a header that is not the scheme and one token", async () => {
      app = appOf(kernel, { authToken: TOKEN });
      for (const header of [`Bearer ${TOKEN} junk`, `Basic ${TOKEN}`, TOKEN, "Bearer", `Bearer  ${TOKEN},${TOKEN}`]) {
        expect((await get(app, "/v1/skills", { authorization: header })).status, header).toBe(401);
      }
    });

    it("answers the token, the scheme in any case, on MCP, REST and the catalog page", async () => {
      app = appOf(kernel, { authToken: TOKEN });
      const initialized = await post(app, "/mcp", INITIALIZE, { authorization: `bearer ${TOKEN}` });
      expect(initialized.status).toBe(200);
      await initialized.body?.cancel();
      expect((await get(app, "/v1/skills", { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
      expect((await get(app, "/", { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    });

    it("leaves the health checks open", async () => {
      app = appOf(kernel, { authToken: TOKEN });
      expect((await get(app, "/healthz")).status).toBe(200);
      expect((await get(app, "/readyz")).status).toBe(200);
    });
  });

  describe("sign-in (OAuth)", () => {
    const oauth = { issuer: "http://127.0.0.1:9/", audience: "http://127.0.0.1:3000/mcp" };

    it("refuses `Bearer <jwt> junk` and other headers that are not one token, before asking the issuer", async () => {
      app = appOf(kernel, { oauth });
      for (const header of [`Bearer ${JWT} junk`, `Bearer ${JWT} ${JWT}`, `Bearer ${JWT}"`, `Basic ${JWT}`, "Bearer"]) {
        const response = await get(app, "/v1/skills", { authorization: header });
        expect(response.status, header).toBe(401);
        expect(response.headers.get("www-authenticate"), header).toMatch(/^Bearer .*error="invalid_token"/);
      }
    });

    it("answers a request without a token 401, naming where the metadata is", async () => {
      app = appOf(kernel, { oauth });
      const response = await post(app, "/mcp", INITIALIZE);
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toContain(
        'resource_metadata="http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp"',
      );
      const metadata = await get(app, "/.well-known/oauth-protected-resource/mcp");
      expect(await metadata.json()).toMatchObject({
        resource: "http://127.0.0.1:3000/mcp",
        authorization_servers: ["http://127.0.0.1:9/"],
      });
    });
  });
});
