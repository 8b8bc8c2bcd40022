import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LISTED_URIS, writeExtensionSkills } from "../fixtures/extension-skills.js";
import { RUNTIMES, type Runtime } from "../helpers/cli.js";
import { startHttpServer, type HttpServerProcess } from "../helpers/http-server.js";
import {
  DirectoryResultSchema,
  GetSkillResultSchema,
  listAllSkills,
  requestError,
  verifySkill,
} from "../helpers/skills-host.js";

// The host's conversation of skills-extension.test.ts, over Streamable HTTP: stateful on every
// runtime, and stateless (any replica answers any request) on Node.
const VARIANTS: [Runtime, boolean][] = [
  ...(Object.keys(RUNTIMES) as Runtime[]).map((runtime): [Runtime, boolean] => [runtime, false]),
  ["node", true],
];

describe.each(VARIANTS)("the MCP Skills extension over HTTP on %s (stateless: %s)", (runtime, stateless) => {
  let work: string;
  let server: HttpServerProcess;
  let client: Client;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "skills-kernel-extension-http-"));
    const project = join(work, "project");
    const user = join(work, "user");
    await writeExtensionSkills(project, user);
    const config = {
      plugins: [
        [
          "fs",
          {
            roots: [
              { path: project, source: "project" },
              { path: user, source: "user" },
            ],
          },
        ],
        "read-skill",
        "skill-resources",
        ["skills-extension", { pageSize: 2, unlisted: ["hidden"] }],
      ],
    };
    await writeFile(join(work, "skills.json"), JSON.stringify(config));
    server = await startHttpServer(["--config", join(work, "skills.json"), ...(stateless ? ["--stateless"] : [])], {
      runtime,
      cwd: work,
    });
    client = new Client({ name: "skills-host-http", version: "0" });
    await client.connect(new StreamableHTTPClientTransport(server.mcpUrl));
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
    await rm(work, { recursive: true, force: true });
  });

  it("declares the extension, pages through skills/list and serves every file as its manifest says", async () => {
    expect(client.getServerCapabilities()?.extensions).toEqual({
      "io.modelcontextprotocol/skills": { directoryRead: true },
    });
    const { skills, pages } = await listAllSkills(client);
    expect(skills.map((skill) => skill.uri)).toEqual(LISTED_URIS);
    expect(pages).toBe(2);
    for (const skill of skills) await verifySkill(client, skill);
  });

  it("answers skills/get and directory reads, and refuses what is not a skill with -32602", async () => {
    const { skills } = await listAllSkills(client);
    const first = skills[0]!;
    const got = await client.request({ method: "skills/get", params: { uri: first.uri } }, GetSkillResultSchema);
    expect(got).toMatchObject({ skill: first });
    const root = first.uri.slice(0, -"/SKILL.md".length);
    const directory = await client.request(
      { method: "resources/directory/read", params: { uri: root } },
      DirectoryResultSchema,
    );
    expect(directory.resources.map((r) => r.uri)).toContain(first.uri);
    expect((await requestError(client, "skills/get", { uri: "skill://no-such-skill/SKILL.md" })).code).toBe(-32602);
  });
});
