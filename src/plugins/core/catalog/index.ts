import type { McpServer } from "@modelcontextprotocol/server";
import { definePlugin } from "../../../kernel/config.js";
import { callerView, WholeCatalog } from "../../../skills/catalog/catalog.js";
import { listingTtlMs } from "../../../skills/catalog/listing-ttl.js";
import { announceSkillChanges } from "./announce.js";
import { servingChecks } from "./serving-checks.js";
import { TOKENS } from "../../../tokens.js";
import { INTERNAL_TOKENS } from "../../../internal-tokens.js";

/** How long a server's first answers wait for a source's first load (a hanging catalog retries for far longer). */
const FIRST_ANSWER_WAIT_MS = 5_000;

/**
 * The skill catalog: every source's skills with identity resolved. Loaded at start, once every
 * source is set up; a served kernel also follows the sources' watchers, and tells each client
 * when what it lists changed with the skills. Each source is held to the skill policy (the
 * skill-policy plugin's, with its defaults when the config does not list it: remote sources
 * blocked on a high audit finding), so a
 * skill it refuses is never in the catalog.
 */
export default definePlugin({
  name: "catalog",
  provides: [TOKENS.WholeCatalog, INTERNAL_TOKENS.CallerCatalog, TOKENS.ListingTtl],
  consumes: [
    { token: TOKENS.CatalogSource, optional: true, wholeCatalog: true },
    { token: TOKENS.SourceVisibility, optional: true, wholeCatalog: true },
    // Without a skill-policy entry in the config, its defaults (the token's): remote sources blocked on a high finding.
    TOKENS.SkillPolicy,
  ],
  setup(ctx) {
    const catalog = new WholeCatalog(ctx.logger);
    ctx.provide(TOKENS.WholeCatalog, catalog);
    ctx.provide(INTERNAL_TOKENS.CallerCatalog, (identity) => callerView(catalog, identity));
    ctx.provide(TOKENS.ListingTtl, () => listingTtlMs(catalog.sources));
    // Named: the kernel tells contributions apart by name, and an anonymous function's is "".
    // On any change, whoever the caller: list_changed names nothing, and the one relay that serves
    // every 2026-07-28 subscriptions/listen stream is built for no caller in particular.
    const skillChanges = (server: McpServer) => announceSkillChanges(server, catalog, ctx.logger);
    ctx.extendServer(skillChanges);
    let stopWatching: (() => void) | undefined;
    return {
      async start(started) {
        const policy = started.resolve(TOKENS.SkillPolicy);
        const visibility = new Map(
          started.resolveAll(TOKENS.SourceVisibility).map(({ name, visibleTo }) => [name, visibleTo]),
        );
        for (const source of started.resolveAll(TOKENS.CatalogSource)) {
          catalog.addSource(await servingChecks(source, policy, started.logger), {
            visibleTo: visibility.get(source.name),
          });
        }
        void catalog.refresh(undefined, started.signal);
      },
      serve(serving) {
        catalog.answerWithin(FIRST_ANSWER_WAIT_MS);
        stopWatching ??= catalog.watch(serving.signal);
      },
      stop() {
        stopWatching?.();
      },
    };
  },
});
