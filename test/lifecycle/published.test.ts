import { afterEach, describe, expect, it } from "vitest";
import { publishedDigest } from "../../src/lifecycle/published.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";

const SCHEMA = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";
const digest = `sha256:${"b".repeat(64)}`;
const servers: FixtureServer[] = [];
afterEach(async () => Promise.all(servers.splice(0).map((server) => server.close())));

async function serving(body: unknown, status = 200): Promise<string> {
  const server = await startFixtureServer({
    "/index.json": { status, body: typeof body === "string" ? body : JSON.stringify(body) },
  });
  servers.push(server);
  return `${server.url}/index.json`;
}

describe("publishedDigest", () => {
  it("gives the digest the index names for the skill, sending the catalog token to the index", async () => {
    const url = await serving({
      $schema: SCHEMA,
      skills: [{ name: "pdf", type: "archive", description: "PDFs.", url: "pdf.tar.gz", digest }],
    });
    expect(await publishedDigest(url, "pdf", "t0ken")).toBe(digest);
    expect(servers[0]!.requests[0]!.headers.authorization).toBe("Bearer t0ken");
  });

  it.each([
    [
      "a skill it no longer lists",
      { $schema: SCHEMA, skills: [] },
      200,
      /"pdf" is no longer in http:\/\/.*\/index\.json/,
    ],
    [
      "an entry it no longer accepts",
      {
        $schema: SCHEMA,
        skills: [{ name: "pdf", type: "archive", description: "PDFs.", url: "pdf.tar.gz", digest: "md5:1" }],
      },
      200,
      /no longer in/,
    ],
    [
      "an index of another format",
      { skills: [{ name: "pdf", description: "PDFs.", files: ["SKILL.md"] }] },
      200,
      /is no longer an Agent Skills discovery 0\.2\.0 index/,
    ],
    ["no JSON", "<html>", 200, /is not JSON/],
    ["a 404", "", 404, /answered HTTP 404/],
  ])("refuses %s, naming the index", async (_what, body, status, message) => {
    await expect(publishedDigest(await serving(body, status), "pdf")).rejects.toThrow(message);
  });
});
