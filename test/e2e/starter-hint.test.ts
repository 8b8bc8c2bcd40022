import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectCli } from "../helpers/cli.js";
import { waitFor } from "../helpers/wait.js";

const EXAMPLES = fileURLToPath(new URL("../../examples/skills", import.meta.url));
const HINT = /^\[skills-kernel\] warn: serving no skills: /;

let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "sk-starter-"));
  await mkdir(join(work, "project"));
  await mkdir(join(work, "home"));
  // A package.json stops the config search here: the embedded default serves the project's and the home's folders.
  await writeFile(join(work, "project/package.json"), "{}");
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("a server with no skills says how to get some", () => {
  it("logs one line naming add, --skills-dir, --git and --catalog when nothing is served", async () => {
    const server = await connectCli([], { cwd: join(work, "project"), env: { HOME: join(work, "home") } });
    try {
      await waitFor("the starter line", () =>
        HINT.test(
          server
            .stderr()
            .split("\n")
            .find((line) => line.includes("serving no skills")) ?? "",
        ),
      );
      const lines = server
        .stderr()
        .split("\n")
        .filter((line) => HINT.test(line));
      expect(lines).toHaveLength(1);
      for (const way of ["skills-kernel add OWNER/REPO", "--skills-dir DIR", "--git OWNER/REPO", "--catalog URL"])
        expect(lines[0]).toContain(way);
      // Still a server: it answers, with an empty list.
      const listed = await server.client.callTool({ name: "list_skills", arguments: { format: "json" } });
      expect(listed.structuredContent).toMatchObject({ total: 0 });
    } finally {
      await server.client.close();
    }
  });

  it("counts one skill as one skill", async () => {
    const server = await connectCli(["--skills-dir", join(EXAMPLES, "readme-reviewer")]);
    try {
      await waitFor("the serving line", () => server.stderr().includes("serving 1 skill over stdio\n"));
    } finally {
      await server.client.close();
    }
  });

  it("says nothing of the kind when there are skills", async () => {
    const server = await connectCli(["--skills-dir", EXAMPLES]);
    try {
      // The starter line would come before this one.
      await waitFor("the serving line", () => server.stderr().includes("serving 3 skills over stdio"));
      expect(server.stderr()).not.toContain("serving no skills");
    } finally {
      await server.client.close();
    }
  });
});
