import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ProtocolError } from "@modelcontextprotocol/client";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectCli, RUNTIMES, type Runtime } from "../helpers/cli.js";

type Connected = Awaited<ReturnType<typeof connectCli>>;

async function writeSkill(root: string, name: string, description: string): Promise<void> {
  await mkdir(join(root, name), { recursive: true });
  await writeFile(join(root, name, "SKILL.md"), `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`);
}

const REVISIONS = {
  "2026-07-28": { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  "2025-11-25": undefined,
} as const;

// The shipped bundle over stdio, as a client of each protocol revision meets it (serveStdio: a
// 2025 initialize pins a 2025 server, a 2026 request a modern one).
describe.each(Object.keys(RUNTIMES) as Runtime[])("both protocol revisions over stdio on %s", (runtime) => {
  describe.each(Object.keys(REVISIONS) as (keyof typeof REVISIONS)[])("a %s client", (revision) => {
    const modern = revision === "2026-07-28";
    let work: string;
    let skills: string;
    let server: Connected;

    beforeAll(async () => {
      work = await mkdtemp(join(tmpdir(), "skills-kernel-revisions-"));
      skills = join(work, "skills");
      await writeSkill(skills, "pdf-tables", "Extract tables from PDF files into CSV.");
      await writeSkill(skills, "commit-message", "Write a conventional commit message.");
      server = await connectCli(["--skills-dir", skills], { runtime, cwd: work, client: REVISIONS[revision] });
    });
    afterAll(async () => {
      await server?.client.close();
      await rm(work, { recursive: true, force: true });
    });

    it("speaks the revision it opened with, names the server, and declares logging at 2025-11-25 only", () => {
      expect(server.client.getNegotiatedProtocolVersion()).toBe(revision);
      expect(server.client.getServerVersion()).toMatchObject({
        name: "skills-kernel",
        title: "Skills Kernel",
        websiteUrl: expect.any(String),
        icons: expect.any(Array),
      });
      // 2026-07-28 deprecates the logging capability.
      expect(server.client.getServerCapabilities()?.logging).toEqual(modern ? undefined : {});
    });

    it("lists and calls the tools, with caching hints on 2026-07-28 only", async () => {
      const listed = await server.client.listTools();
      expect(listed.tools.map((tool) => tool.name)).toContain("search_skills");
      if (modern) {
        // A watched folder announces its changes: a client that does not listen re-lists within a minute.
        expect(listed).toMatchObject({ ttlMs: 60_000, cacheScope: "public" });
      } else {
        expect(listed).not.toHaveProperty("ttlMs");
      }
      const found = await server.client.callTool({ name: "search_skills", arguments: { query: "tables in a PDF" } });
      expect(found.structuredContent).toMatchObject({ results: [{ id: "pdf-tables" }] });
    });

    it("lists and reads the skills as resources, and refuses an unknown one with -32602 naming its uri", async () => {
      const { resources } = await server.client.listResources();
      expect(resources.map((resource) => resource.uri).sort()).toEqual([
        "skill://commit-message/SKILL.md",
        "skill://pdf-tables/SKILL.md",
      ]);
      const read = await server.client.readResource({ uri: "skill://pdf-tables/SKILL.md" });
      expect(read.contents[0]).toMatchObject({
        mimeType: "text/markdown",
        text: expect.stringContaining("# pdf-tables"),
      });
      if (modern) expect(read).toMatchObject({ ttlMs: 60_000, cacheScope: "public" });
      const error = await server.client
        .readResource({ uri: "skill://pdf-tabels/SKILL.md" })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error).toMatchObject({
        code: -32602,
        data: { uri: "skill://pdf-tabels/SKILL.md" },
        message: expect.stringContaining("did you mean skill://pdf-tables/SKILL.md"),
      });
    });

    it("serves skills/list through the Skills extension, each file as its entry says", async () => {
      const host = new SkillsClient(server.client);
      expect(host.supported).toBe(true);
      const listing = await host.list();
      expect(listing.invalid).toEqual([]);
      expect(listing.skills.map((skill) => skill.uri).sort()).toEqual([
        "skill://commit-message/SKILL.md",
        "skill://pdf-tables/SKILL.md",
      ]);
      if (modern) expect(listing).toMatchObject({ ttlMs: 60_000, cacheScope: "public" });
      for (const skill of listing.skills) expect((await host.read(skill)).verified).toBe(true);
    });

    it("tells the client when a skill is added: through subscriptions/listen on 2026-07-28, unasked on 2025-11-25", async () => {
      let changed = 0;
      server.client.setNotificationHandler("notifications/resources/list_changed", () => void changed++);
      const subscription = modern
        ? await server.client.listen({ resourcesListChanged: true, toolsListChanged: true })
        : undefined;
      // The tools are fixed once the kernel has booted (tools.listChanged false): only resources are honoured.
      if (subscription) expect(subscription.honoredFilter).toEqual({ resourcesListChanged: true });
      await writeSkill(skills, `fresh-${revision.slice(0, 4)}`, "Added while serving.");
      await expect.poll(() => changed, { timeout: 15_000 }).toBeGreaterThan(0);
      expect((await server.client.listResources()).resources.map((resource) => resource.uri)).toContain(
        `skill://fresh-${revision.slice(0, 4)}/SKILL.md`,
      );
      await subscription?.close();
    });
  });
});
