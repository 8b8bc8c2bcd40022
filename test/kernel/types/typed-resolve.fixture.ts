// Compiled by typed-resolve.test.ts (and `npm run typecheck`): a plugin's context resolves what its
// `consumes` and `provides` list, and nothing else. Each `@ts-expect-error` must meet an error:
// TypeScript reports one that meets none, so the test fails if the check goes away.
import { definePlugin, TOKENS } from "skills-kernel";
import { pluginCache } from "../../../src/remote/plugin-cache.js";

export const declared = definePlugin({
  name: "declared",
  consumes: [
    TOKENS.Ranker,
    { token: TOKENS.Cache, optional: true },
    { token: TOKENS.MetricsRecorder, fromStart: true },
  ],
  provides: [TOKENS.HttpRoute],
  setup(ctx) {
    ctx.resolve(TOKENS.Ranker).build([]);
    void ctx.resolveOptional(TOKENS.Cache)?.namespace;
    void ctx.resolveAll(TOKENS.HttpRoute);
    // The kernel's own, and what only the kernel collects, need no declaring.
    ctx.logger.debug(`${ctx.resolveAll(TOKENS.Tool).length} tools`);
    // @ts-expect-error: the skill policy is not in consumes
    ctx.resolve(TOKENS.SkillPolicy);
    // @ts-expect-error: a helper resolving the cache monitor too needs a context that may
    pluginCache(ctx, "/tmp");
    return {
      start(started) {
        started.resolve(TOKENS.MetricsRecorder).searchIndexBuilt(0);
      },
      stop(stopped) {
        // @ts-expect-error: nor in a hook
        stopped.resolve(TOKENS.WholeCatalog);
      },
    };
  },
});

export const bare = definePlugin({
  name: "bare",
  setup(ctx) {
    // @ts-expect-error: a plugin that declares nothing resolves nothing but the kernel's
    ctx.resolve(TOKENS.Ranker);
  },
});

export const cached = definePlugin({
  name: "cached",
  consumes: [TOKENS.Cache, { token: TOKENS.CacheMonitor, optional: true }],
  setup(ctx) {
    pluginCache(ctx, "/tmp");
  },
});
