import type { McpServer } from "@modelcontextprotocol/server";
import { SkillsExtension } from "@modelcontextprotocol/server/ext/skills";
import { z } from "zod";
import { definePlugin } from "../../../kernel/config.js";
import { INCLUDE_SECRET_FILES_DESCRIPTION } from "../../../skills/files/secret-files.js";
import { TOKENS } from "../../../tokens.js";
import { INTERNAL_TOKENS } from "../../../internal-tokens.js";
import type { ServerBuild } from "../../../kernel/types.js";
import { EntryBuilder } from "./entries.js";
import { FileFacts } from "./file-facts.js";
import { SkillListing } from "./listing.js";
import { SignerCheck } from "./signer-meta.js";
import { CatalogSkillSource } from "./source.js";

const optionsSchema = z.strictObject({
  /** Entries per skills/list page. An entry carries its whole manifest, up to 512 files. */
  pageSize: z.number().int().min(1).max(1000).default(50),
  /** Skills served (skills/get, resources/read) but left out of skills/list: plain names or qualified ids. */
  unlisted: z.array(z.string().min(1)).default([]),
  /** Serve files named like credentials too (in entries and reads). */
  includeSecretFiles: z.boolean().default(false).describe(INCLUDE_SECRET_FILES_DESCRIPTION),
});

/**
 * The MCP Skills extension (SEP-2640) through the SDK's SkillsExtension over the catalog: the
 * SDK serves skills/list, skills/get, resources/directory/read and the skill:// files, and checks
 * each entry; this plugin builds the entries (digests, the 512-file and 16 MiB limits) and says
 * in the log why a skill is left out (docs/skills-extension.md).
 */
export default definePlugin({
  name: "skills-extension",
  // skill-resources (when configured) serves the files through it, before its own template.
  provides: [INTERNAL_TOKENS.SkillFileServer],
  // The whole catalog: entries are built and cached once for every caller; each server lists its caller's view.
  consumes: [
    { token: TOKENS.WholeCatalog, wholeCatalog: true },
    TOKENS.Cache,
    { token: TOKENS.SkillPolicy, optional: true },
  ],
  options: optionsSchema,
  setup(ctx, options) {
    const catalog = ctx.resolve(TOKENS.WholeCatalog);
    const facts = new FileFacts(ctx.resolveOptional(TOKENS.Cache));
    const unlisted = new Set(options.unlisted);
    const allowedSigners = ctx.resolveOptional(TOKENS.SkillPolicy)?.allowedSigners;
    const signers = allowedSigners === undefined ? undefined : new SignerCheck(catalog, allowedSigners);
    const listing = new SkillListing(
      new EntryBuilder(catalog, facts, options.includeSecretFiles, ctx.logger, signers),
      // As the tools take them: a plain name reaches the skill that wins it, a qualified id exactly one.
      (skill) => unlisted.has(skill.id) || unlisted.has(skill.qualifiedId),
      options.pageSize,
      ctx.logger,
    );
    // One extension per server, attached by whichever asks first (this plugin's extension, or
    // skill-resources' before its own template): its caching hint is that server's.
    // Each server answers one caller: its source is the catalog as that caller may see it.
    const served = new WeakSet<McpServer>();
    const serveSkillFiles = (server: McpServer, { cacheHint, catalog: view }: ServerBuild) => {
      if (served.has(server)) return;
      served.add(server);
      new SkillsExtension({
        source: new CatalogSkillSource(view, listing, options.includeSecretFiles, ctx.logger),
        cacheHint,
        // The entries are built and checked here; what the SDK still finds wrong is a bug, logged.
        onWarning: (warning) => ctx.logger.warn(`${warning.path}: ${warning.message}`),
      }).attach(server);
    };
    ctx.provide(INTERNAL_TOKENS.SkillFileServer, serveSkillFiles);
    // Named: the kernel tells contributions apart by name, and an anonymous function's is "".
    const skillsExtension = (server: McpServer, build: ServerBuild) => serveSkillFiles(server, build);
    ctx.extendServer(skillsExtension);
  },
});
