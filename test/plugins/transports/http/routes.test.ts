import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { SkillsKernel } from "../../../../src/create-kernel.js";
import type { HttpApp } from "../../../../src/plugins/transports/http/app.js";
import { appOf, bootExamples, get } from "./in-process.js";

describe("routes beside MCP, in process", () => {
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

  it("answers the health checks", async () => {
    app = appOf(kernel);
    expect(await (await get(app, "/healthz")).json()).toEqual({ status: "ok" });
    const ready = await get(app, "/readyz");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ready" });
  });

  it("serves the REST API: the list, one skill, one file, search", async () => {
    app = appOf(kernel);
    const list = (await (await get(app, "/v1/skills")).json()) as { skills: { name: string }[] };
    expect(list.skills.map((skill) => skill.name).sort()).toEqual([
      "changelog-curator",
      "commit-message-writer",
      "readme-reviewer",
    ]);
    const one = await get(app, "/v1/skills/readme-reviewer");
    expect(one.status).toBe(200);
    expect(JSON.stringify(await one.json())).toContain("readme-reviewer");
    const file = await get(app, "/v1/skills/commit-message-writer/files/references/conventional-commits.md");
    expect(file.status).toBe(200);
    expect(await file.json()).toMatchObject({ path: "references/conventional-commits.md" });
    const search = (await (await get(app, "/v1/skills/search?q=changelog")).json()) as { results: { id: string }[] };
    expect(search.results[0]).toMatchObject({ id: "changelog-curator" });
  });

  it("answers REST mistakes with a JSON error: unknown skill or file 404, a write 405", async () => {
    app = appOf(kernel);
    const unknown = await get(app, "/v1/skills/readme-reviewr");
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toContain("readme-reviewer");
    expect((await get(app, "/v1/skills/readme-reviewer/files/nope.md")).status).toBe(404);
    expect((await get(app, "/v1/nothing")).status).toBe(404);
    const posted = await app.fetch(
      new Request("http://127.0.0.1:3000/v1/skills", { method: "POST", headers: { host: "127.0.0.1:3000" } }),
    );
    expect(posted.status).toBe(405);
    expect(posted.headers.get("allow")).toBe("GET, HEAD");
  });

  it("serves the catalog page: the list, a skill's page, 404 for an unknown one, no script", async () => {
    app = appOf(kernel);
    const list = await get(app, "/");
    expect(list.status).toBe(200);
    expect(list.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(list.headers.get("content-security-policy")).toMatch(/^default-src 'none';/);
    expect(await list.text()).toContain("commit-message-writer");
    await kernel.catalog.ready();
    const id = kernel.catalog.get("readme-reviewer")!.qualifiedId;
    // A skill's page is a folder, so that the relative links in its SKILL.md resolve under it.
    expect((await get(app, `/skill/${id}`)).status).toBe(308);
    const page = await get(app, `/skill/${id}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("readme-reviewer");
    expect((await get(app, "/skill/no-such-skill/")).status).toBe(404);
    expect((await get(app, "/?q=changelog")).status).toBe(200);
  });

  it("answers a path no route holds 404, and serves under basePath only", async () => {
    app = appOf(kernel, { basePath: "/skills" });
    expect((await get(app, "/skills/v1/skills")).status).toBe(200);
    expect((await get(app, "/skills/healthz")).status).toBe(200);
    const outside = await get(app, "/v1/skills");
    expect(outside.status).toBe(404);
    expect(await outside.json()).toEqual({ error: { status: 404, message: "nothing at /v1/skills" } });
  });
});
