import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinPlugins } from "../../../../src/plugins/index.js";
import skillResources from "../../../../src/plugins/mcp/skill-resources/index.js";
import { startSkillServer, type SkillServer } from "../../../helpers/skill-server.js";
import { skillMd, tempDir, writeSkillFile } from "../../sources/fs/files.js";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]);

async function readError(server: SkillServer, uri: string): Promise<string> {
  const error = await server.client.readResource({ uri }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(Error);
  return (error as Error).message;
}

describe("skill resources", () => {
  let work: string;
  let project: string;
  let server: SkillServer;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "skills-kernel-resources-"));
    project = join(work, "project");
    const user = join(work, "user");
    await writeSkillFile(project, "pdf", skillMd("pdf", "Project PDF."));
    await writeSkillFile(project, "pdf/references", "# Forms\n", "forms.md");
    await writeSkillFile(project, "pdf/references", "spaced", "a b.md");
    await writeSkillFile(project, "pdf/references", "percent", "100%.md");
    await writeSkillFile(project, "pdf/assets", "", "logo.png");
    await writeFile(join(project, "pdf", "assets", "logo.png"), PNG);
    await writeSkillFile(project, "a/run", skillMd("run"));
    await writeSkillFile(project, "b/run", skillMd("run"));
    await writeSkillFile(user, "pdf", skillMd("pdf", "User PDF."));
    server = await startSkillServer([project, user]);
  });
  afterAll(async () => {
    await server.close();
    await rm(work, { recursive: true, force: true });
  });

  it("lists every skill's SKILL.md, source and folders before the name when it is shadowed", async () => {
    const { resources } = await server.client.listResources();
    expect(resources.map((resource) => [resource.uri, resource.name, resource.mimeType])).toEqual([
      ["skill://pdf/SKILL.md", "pdf", "text/markdown"],
      ["skill://run/SKILL.md", "run", "text/markdown"],
      ["skill://project/b/run/SKILL.md", "run", "text/markdown"],
      ["skill://user/pdf/SKILL.md", "pdf", "text/markdown"],
    ]);
    // The title is the id the tools take.
    expect(resources.map((resource) => resource.title)).toEqual(["pdf", "run", "project:b/run", "user:pdf"]);
    expect(resources[0]).toMatchObject({ description: "Project PDF." });
    const { resourceTemplates } = await server.client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      expect.objectContaining({ name: "skill", uriTemplate: "skill://{skill}/{+path}" }),
    ]);
  });

  it("reads every listed SKILL.md", async () => {
    const { resources } = await server.client.listResources();
    for (const resource of resources) {
      const { contents } = await server.client.readResource({ uri: resource.uri });
      expect(contents).toEqual([
        { uri: resource.uri, mimeType: "text/markdown", text: expect.stringContaining("---\nname: ") },
      ]);
    }
    const { contents } = await server.client.readResource({ uri: "skill://user/pdf/SKILL.md" });
    expect(contents[0]).toMatchObject({ text: skillMd("pdf", "User PDF.") });
  });

  it("reads a skill's files through the template: text, binary and encoded names", async () => {
    expect((await server.client.readResource({ uri: "skill://pdf/references/forms.md" })).contents).toEqual([
      { uri: "skill://pdf/references/forms.md", mimeType: "text/markdown", text: "# Forms\n" },
    ]);
    expect((await server.client.readResource({ uri: "skill://pdf/assets/logo.png" })).contents).toEqual([
      { uri: "skill://pdf/assets/logo.png", mimeType: "image/png", blob: PNG.toString("base64") },
    ]);
    expect((await server.client.readResource({ uri: "skill://pdf/references/a%20b.md" })).contents[0]).toMatchObject({
      text: "spaced",
    });
    expect((await server.client.readResource({ uri: "skill://pdf/references/100%25.md" })).contents[0]).toMatchObject({
      text: "percent",
    });
  });

  it("refuses unknown skills, unlisted files and malformed URIs with a clear error", async () => {
    expect(await readError(server, "skill://pdff/SKILL.md")).toContain(
      "no skill is served at skill://pdff/SKILL.md; did you mean skill://pdf/SKILL.md, skill://user/pdf/SKILL.md?",
    );
    expect(await readError(server, "skill://project/pdf/SKILL.md")).toContain(
      "did you mean skill://pdf/SKILL.md, skill://user/pdf/SKILL.md?",
    );
    expect(await readError(server, "skill://pdf")).toContain("not found");
    expect(await readError(server, "skill://pdf/references/missing.md")).toContain(
      "references/missing.md: no such file",
    );
    expect(await readError(server, "skill://pdf/references")).toContain(
      "references: is not a regular file but a folder",
    );
    expect(await readError(server, "skill://pdf/references%2Fforms.md")).toContain("it holds an encoded '/'");
    expect(await readError(server, "skill://pdf/%E0%A4%A")).toContain("it is not valid percent-encoding");
    expect(await readError(server, "skill://%E0%A4%A/SKILL.md")).toContain("it is not valid percent-encoding");
  });

  it("tells the client when the list changes", async () => {
    let notified = 0;
    server.client.setNotificationHandler("notifications/resources/list_changed", () => {
      notified++;
    });
    await writeSkillFile(project, "fresh", skillMd("fresh"));
    await server.kernel.catalog.refresh();
    await expect.poll(() => notified).toBe(1);
    expect((await server.client.listResources()).resources.map((resource) => resource.uri)).toContain(
      "skill://fresh/SKILL.md",
    );
  });
});

describe("skill resources options and lifetime", () => {
  it("cuts a file over maxFileBytes and says so in _meta", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "s", skillMd("s"));
    await writeSkillFile(root, "s", "0123456789", "ten.txt");
    const server = await startSkillServer([root], [["skill-resources", { maxFileBytes: 4 }]]);
    try {
      expect((await server.client.readResource({ uri: "skill://s/ten.txt" })).contents).toEqual([
        { uri: "skill://s/ten.txt", mimeType: "text/plain", text: "0123", _meta: { truncated: true, size: 10 } },
      ]);
    } finally {
      await server.close();
    }
  });

  it("is the built-in plugin named skill-resources", async () => {
    expect(await builtinPlugins["skill-resources"]!()).toBe(skillResources);
  });
});
