import type { McpServer, RegisteredPrompt } from "@modelcontextprotocol/server";
import { z } from "zod";
import { definePlugin } from "../../../kernel/config.js";
import { errorMessage } from "../../../kernel/errors.js";
import { skillFileOptionsSchema } from "../../../skills/files/skill-files.js";
import { createPromptBook, type PromptBook, type PromptDefinition } from "./definitions.js";
import { listPromptsAfterFirstLoad } from "./list-after-load.js";
import type { CatalogView } from "../../../skills/catalog/catalog-view.js";

const optionsSchema = skillFileOptionsSchema.extend({
  /**
   * How many skills get a prompt of their own, in catalog order: clients show each as a slash
   * command, and prompts/list has no pages. The listing prompt reaches every skill.
   */
  maxSkillPrompts: z.number().int().min(0).max(10_000).default(500),
});

/** The served skills as MCP prompts, which clients offer as slash commands. */
export default definePlugin({
  name: "skill-prompts",
  options: optionsSchema,
  setup(ctx, options) {
    // One book per view of the catalog (callers who may see the same sources share one).
    const books = new WeakMap<CatalogView, PromptBook>();
    const bookFor = (view: CatalogView) => {
      let book = books.get(view);
      if (!book) books.set(view, (book = createPromptBook(view, options, ctx.logger)));
      return book;
    };
    // Said once per plugin, not per server: HTTP builds a server per request.
    const warned = new Set<string>();
    const warnOnce = (line: string) => {
      if (warned.has(line)) return;
      warned.add(line);
      ctx.logger.warn(line);
    };
    ctx.extendServer((server, { catalog: view }) => {
      // Each server answers one caller: its prompts are the skills that caller may see.
      const book = bookFor(view);
      const sync = keepInStep(server, book, warnOnce);
      // Registered when the client first asks for prompts: a prompt per skill is a schema each,
      // which a session that never asks need not wait for. Until then a change has nothing to
      // update (the catalog plugin announces it).
      let synced = false;
      const firstSync = () => {
        if (synced) return;
        synced = true;
        // Registered as if with the server: the client learns of no change (the SDK announces
        // each prompt registered on a connected server).
        (server as unknown as { sendPromptListChanged: () => void }).sendPromptListChanged = () => undefined;
        try {
          sync();
        } finally {
          Reflect.deleteProperty(server, "sendPromptListChanged");
        }
      };
      if (!listPromptsAfterFirstLoad(server, view, () => register(server, book.listing), firstSync)) firstSync();
      // Each prompt added, removed or changed notifies prompts list_changed (the SDK does, once a tick).
      return view.onChange(() => {
        if (synced) sync();
      });
    });
  },
});

function register(server: McpServer, definition: PromptDefinition): RegisteredPrompt {
  return server.registerPrompt(definition.name, definition.config, definition.callback as never);
}

/** Keeps one server's skill prompts in step with what the book has for the catalog as it is now. */
function keepInStep(server: McpServer, book: PromptBook, warnOnce: (line: string) => void): () => void {
  const registered = new Map<string, { prompt: RegisteredPrompt; definition: PromptDefinition }>();
  /** Names another plugin's prompt holds on this server. */
  const taken = new Set<string>();
  return () => {
    const current = book.current();
    const names = new Set(current.map((definition) => definition.name));
    for (const [name, entry] of registered) {
      if (names.has(name)) continue;
      entry.prompt.remove();
      registered.delete(name);
    }
    for (const definition of current) {
      const had = registered.get(definition.name);
      if (had) {
        // Same name, new description or argument-hint: the prompt keeps its place in the list.
        if (had.definition !== definition) {
          had.prompt.update({
            description: definition.config.description,
            argsSchema: definition.config.argsSchema,
            callback: definition.callback as never,
          });
        }
        had.definition = definition;
        continue;
      }
      if (taken.has(definition.name)) continue;
      try {
        registered.set(definition.name, { prompt: register(server, definition), definition });
      } catch (error) {
        // Another plugin's prompt has this name: the first registered keeps it.
        warnOnce(`no prompt for skill ${definition.name}: ${errorMessage(error)}`);
        taken.add(definition.name);
      }
    }
  };
}
