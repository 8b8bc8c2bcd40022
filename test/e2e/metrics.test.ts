import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Runtime } from "../helpers/cli.js";
import { connectHttp, MCP_HEADERS, rawInitialize, rawRequest } from "../helpers/http-client.js";
import { startHttpServer, type HttpServerProcess } from "../helpers/http-server.js";

const SKILLS = fileURLToPath(new URL("../../examples/skills", import.meta.url));
const TOKEN = "metrics-e2e-token-0123456789";
const AUTH = { authorization: `Bearer ${TOKEN}` };

/** The value of one series in Prometheus text, or undefined when it is not there. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function scrape(server: HttpServerProcess): Promise<string> {
  const response = await fetch(new URL("/metrics", server.origin), { headers: AUTH });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

describe("/metrics after a load run (--metrics, through the bundle on Node 20)", () => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    // No disk cache: an index saved by an earlier test would load instead of being built and timed.
    server = await startHttpServer(["--skills-dir", SKILLS, "--metrics", "--auth-token", TOKEN, "--no-disk-cache"]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("counts requests, latency and errors per method and tool, with bounded labels", async () => {
    const modern = await connectHttp(server.mcpUrl, { token: TOKEN, revision: "2026-07-28" });
    const legacy = await connectHttp(server.mcpUrl, { token: TOKEN });
    const searches = 24;
    await Promise.all(
      Array.from({ length: searches }, (_, i) =>
        (i % 2 === 0 ? modern : legacy).client.callTool({ name: "search_skills", arguments: { query: "changelog" } }),
      ),
    );
    const refused = await modern.client.callTool({ name: "search_skills", arguments: { query: "" } });
    expect(refused.isError).toBe(true);
    // Names the client makes up never become label values.
    await modern.client.callTool({ name: "made-up-tool-7f3a", arguments: {} }).catch(() => undefined);
    const session = (await rawInitialize(server.mcpUrl, AUTH)).headers["mcp-session-id"] as string;
    const unknown = await rawRequest(server.mcpUrl, {
      method: "POST",
      headers: { ...MCP_HEADERS, ...AUTH, "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "made/up-method-7f3a", params: {} }),
    });
    expect(unknown.body).toContain("-32601");
    await modern.client.close();
    await legacy.client.close();

    // The usage plugin counts answers on its next flush (once a second), not while answering.
    const text = await vi.waitFor(
      async () => {
        const scraped = await scrape(server);
        expect(sample(scraped, 'skills_kernel_skill_uses_total{kind="search_hit"}')).toBeGreaterThan(0);
        return scraped;
      },
      { timeout: 20_000, interval: 250 },
    );
    expect(
      sample(text, 'skills_kernel_mcp_requests_total{method="tools/call",tool="search_skills",outcome="ok"}'),
    ).toBe(searches);
    expect(
      sample(text, 'skills_kernel_mcp_requests_total{method="tools/call",tool="search_skills",outcome="error"}'),
    ).toBe(1);
    expect(
      sample(text, 'skills_kernel_mcp_errors_total{method="tools/call",code="tool_error"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'skills_kernel_mcp_request_duration_seconds_count{method="tools/call",tool="search_skills"}'),
    ).toBe(searches + 1);
    expect(sample(text, 'skills_kernel_mcp_errors_total{method="unknown",code="-32601"}')).toBe(1);
    expect(text).toMatch(
      /skills_kernel_mcp_requests_total\{method="tools\/call",tool="unknown",outcome="(ok|error)"\} 1/,
    );
    expect(text).not.toContain("7f3a");
    expect(
      sample(text, 'skills_kernel_mcp_requests_total{method="initialize",tool="",outcome="ok"}'),
    ).toBeGreaterThanOrEqual(2);
    // Skills per source and its state; a skill's name only in the usage series per skill (the
    // embedded default counts usage, and three skills are below maxSkillSeries), no query anywhere.
    expect(sample(text, 'skills_kernel_source_skills{source="skills"}')).toBe(3);
    expect(sample(text, 'skills_kernel_source_state{source="skills",state="ok"}')).toBe(1);
    for (const line of text.split("\n").filter((line) => line.includes("changelog-curator")))
      expect(line).toMatch(
        /^skills_kernel_skill_uses_by_skill_total\{source="skills",skill="changelog-curator",kind="(search_hit|first_hit)"\} \d+$/,
      );
    expect(sample(text, "skills_kernel_search_index_build_seconds")).toBeGreaterThan(0);
    expect(sample(text, "skills_kernel_cache_hits_total")).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'skills_kernel_cache_state{state="connected"}')).toBe(1);
  });

  it("is behind the same bearer auth as /mcp, and read-only", async () => {
    expect((await fetch(new URL("/metrics", server.origin))).status).toBe(401);
    expect((await fetch(new URL("/metrics", server.origin), { method: "POST", headers: AUTH })).status).toBe(405);
    expect((await fetch(new URL("/metrics/x", server.origin), { headers: AUTH })).status).toBe(404);
  });
});

describe.each(["node24", "bun", "deno"] as Runtime[])("--metrics and --ui on %s", (runtime) => {
  it("serves /metrics and the catalog page", async () => {
    const server = await startHttpServer(["--skills-dir", SKILLS, "--metrics", "--ui"], { runtime });
    try {
      const { client } = await connectHttp(server.mcpUrl, { revision: "2026-07-28" });
      await client.callTool({ name: "list_skills", arguments: {} });
      await client.close();
      const text = await (await fetch(new URL("/metrics", server.origin))).text();
      expect(
        sample(text, 'skills_kernel_mcp_requests_total{method="tools/call",tool="list_skills",outcome="ok"}'),
      ).toBe(1);
      const page = await fetch(new URL("/", server.origin));
      expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
      expect(await page.text()).toContain("changelog-curator");
    } finally {
      await server.stop();
    }
  });
});
