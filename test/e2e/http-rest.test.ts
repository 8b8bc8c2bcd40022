import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectHttp } from "../helpers/http-client.js";
import { startHttpServer, type HttpServerProcess } from "../helpers/http-server.js";

const CONFIG = join(fileURLToPath(new URL("../fixtures/http/", import.meta.url)), "rest.config.json");
const TOKEN = "rest-token-0123456789abcdef";

describe("REST API (rest-api plugin) through the bundle", () => {
  let server: HttpServerProcess;
  const get = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${server.origin}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${TOKEN}`, ...init.headers },
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  beforeAll(async () => {
    server = await startHttpServer(["--config", CONFIG, "--auth-token", TOKEN]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("lists every skill", async () => {
    const { status, body } = await get("/v1/skills");
    expect(status).toBe(200);
    expect(body.total).toBe(3);
    expect(body.skills.map((s: { id: string }) => s.id)).toEqual([
      "changelog-curator",
      "commit-message-writer",
      "readme-reviewer",
    ]);
  });

  it("searches exactly as the search_skills tool does", async () => {
    const { status, body } = await get("/v1/skills/search?q=release%20notes&limit=2");
    expect(status).toBe(200);
    const { client } = await connectHttp(server.mcpUrl, { token: TOKEN });
    const tool = await client.callTool({ name: "search_skills", arguments: { query: "release notes", limit: 2 } });
    await client.close();
    expect(body).toEqual(tool.structuredContent);
    expect(body.results[0].id).toBe("changelog-curator");
  });

  it("keeps the tool's rules: limit 1 to 50, a query that says something", async () => {
    const over = await get("/v1/skills/search?q=notes&limit=51");
    expect(over.status).toBe(400);
    expect(over.body.error.message).toMatch(/^limit: /);
    const blank = await get("/v1/skills/search?q=%20");
    expect(blank.status).toBe(400);
    expect(blank.body.error.message).toContain("query is blank");
  });

  it("reads a skill, and answers 404 with suggestions for an unknown one", async () => {
    const { status, body } = await get("/v1/skills/commit-message-writer");
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: "commit-message-writer", files: ["references/conventional-commits.md"] });
    expect(body.content).toMatch(/^---\nname: commit-message-writer/);
    const missing = await get("/v1/skills/commit-mesage-writer");
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe(
      'no skill named "commit-mesage-writer"; did you mean: commit-message-writer?',
    );
  });

  it("serves a listed file, and nothing outside the skill", async () => {
    const { status, body } = await get("/v1/skills/commit-message-writer/files/references/conventional-commits.md");
    expect(status).toBe(200);
    expect(body).toMatchObject({ path: "references/conventional-commits.md", encoding: "utf8" });
    for (const path of ["..%2F..%2Fpackage.json", "SKILL.md%2F..%2F..%2Freadme-reviewer%2FSKILL.md", "nope.md"]) {
      const outside = await get(`/v1/skills/commit-message-writer/files/${path}`);
      expect(outside.status, path).toBe(404);
      expect(outside.body.error.message, path).not.toContain("/work");
    }
  });

  it("is read-only, behind the same auth, and describes itself in OpenAPI", async () => {
    expect((await get("/v1/skills", { method: "POST" })).status).toBe(405);
    const anonymous = await fetch(`${server.origin}/v1/skills`);
    expect(anonymous.status).toBe(401);
    const { status, body } = await get("/v1/openapi.json");
    expect(status).toBe(200);
    expect(body.openapi).toBe("3.1.0");
    expect(Object.keys(body.paths)).toEqual(["/skills", "/skills/search", "/skills/{id}", "/skills/{id}/files/{path}"]);
    expect(
      body.paths["/skills/search"].get.responses[200].content["application/json"].schema.properties.results,
    ).toBeDefined();
    // The server has a token, so the document says every operation needs it, and how to send it.
    expect(body.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: "http", scheme: "bearer" }),
    });
    expect(body.security).toEqual([{ bearerAuth: [] }]);
    expect(body.paths["/skills"].get.responses[401]).toBeDefined();
  });
});
