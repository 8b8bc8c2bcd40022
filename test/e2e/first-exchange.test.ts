import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { connectCli, RUNTIMES, type Runtime } from "../helpers/cli.js";

const EXAMPLES = fileURLToPath(new URL("../../examples/skills", import.meta.url));

// The catalog's first load may land after `initialize` (it does on Deno): what it brings is in every
// first answer, so no list changed for the client. Over stdio, whatever the server sent before an
// answer arrives before it: the last answer bounds the exchange, no waiting for silence.
describe.each(Object.keys(RUNTIMES) as Runtime[])("the first exchange over stdio on %s", (runtime) => {
  it("lists every skill's prompt and resource, and announces no list change when nothing changed", async () => {
    const server = await connectCli(["--skills-dir", EXAMPLES], { runtime });
    const announced: string[] = [];
    for (const method of ["notifications/prompts/list_changed", "notifications/resources/list_changed"] as const) {
      server.client.setNotificationHandler(method, () => void announced.push(method));
    }
    try {
      const { prompts } = await server.client.listPrompts();
      expect(prompts.map((prompt) => prompt.name).sort()).toEqual([
        "changelog-curator",
        "commit-message-writer",
        "readme-reviewer",
        "skills",
      ]);
      const { resources } = await server.client.listResources();
      expect(resources).toHaveLength(3);
      await server.client.ping();
      expect(announced).toEqual([]);
    } finally {
      await server.client.close();
    }
  });
});
