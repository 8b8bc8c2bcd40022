import { z } from "zod";
import { definePlugin } from "../../../kernel/config.js";
import { errorMessage } from "../../../kernel/errors.js";
import type { CatalogView } from "../../../skills/catalog/catalog-view.js";
import { TOKENS } from "../../../tokens.js";
import { heldBytesResponse, restError, type RequestHead, type RouteCaller } from "../../transports/http/index.js";
import { INDEX_FILE, SiteBuilder, WELL_KNOWN_PATH, type Site } from "./site.js";

const optionsSchema = z.strictObject({
  /** Serve the index; false turns the plugin off where the CLI adds it on its own (serve --transport http). */
  enabled: z.boolean().default(true),
  /** How long a client or shared cache may keep an answer, and how long the server keeps a built index before building the next (it answers meanwhile). */
  maxAgeSeconds: z.number().int().min(0).max(86_400).default(60),
});

/**
 * Agent Skills discovery 0.2.0 on the http transport: `/.well-known/agent-skills/index.json`
 * listing what the caller may see, each skill as its SKILL.md (`skill-md`) or a `.tar.gz` of its
 * folder (`archive`), with the sha256 of the bytes served. What `npx skills add https://host`
 * and other installers read (docs/deployment.md#agent-skills-discovery).
 */
export default definePlugin({
  name: "well-known",
  provides: [TOKENS.HttpRoute],
  // The whole catalog for its changes; each answer is built from the caller's view.
  consumes: [
    { token: TOKENS.WholeCatalog, wholeCatalog: true },
    { token: TOKENS.HttpOptions, optional: true, fromStart: true },
  ],
  options: optionsSchema,
  needsTrust: { plugin: "it serves skills on the HTTP listener" },
  setup(ctx, options) {
    if (!options.enabled) return;
    const catalog = ctx.resolve(TOKENS.WholeCatalog);
    const builder = new SiteBuilder(ctx.logger);
    // One site per view (what one set of callers may see), rebuilt after maxAge or a catalog change.
    // Past maxAge with nothing changed, the built site answers while the next one is built.
    interface Held {
      readonly site: Promise<Site>;
      readonly at: number;
      readonly generation: number;
      built?: Site;
      rebuilding?: boolean;
    }
    const sites = new WeakMap<CatalogView, Held>();
    let generation = 0;
    let signIn = false;
    const reported = new Set<string>();
    catalog.onChange((change) => {
      generation += 1;
      builder.forget(change.removed);
    });
    const build = (view: CatalogView): Held => {
      const held: Held = { site: builder.build(view, ctx.signal), at: Date.now(), generation };
      held.site.then(
        (built) => {
          held.built = built;
          for (const left of built.leftOut) {
            const line = `${left.skill} is left out of the discovery index (${left.code}): ${left.reason}`;
            if (!reported.has(line)) ctx.logger.warn(line);
            reported.add(line);
          }
        },
        () => undefined,
      );
      return held;
    };
    /**
     * The site built for `view` in this generation, when there is one (starting the next build
     * past maxAge): what siteOf resolves to at once. Its catalog was ready before it was built.
     */
    const builtSiteOf = (view: CatalogView): Site | undefined => {
      const held = sites.get(view);
      if (held?.built === undefined || held.generation !== generation) return undefined;
      if (Date.now() - held.at >= options.maxAgeSeconds * 1000 && !held.rebuilding) {
        held.rebuilding = true;
        const next = build(view);
        next.site.then(
          () => {
            if (sites.get(view) === held) sites.set(view, next);
          },
          (error: unknown) => {
            held.rebuilding = false;
            ctx.logger.error(`rebuilding the discovery index failed: ${errorMessage(error)}`);
          },
        );
      }
      return held.built;
    };
    const siteOf = (view: CatalogView): Promise<Site> => {
      const built = builtSiteOf(view);
      if (built !== undefined) return Promise.resolve(built);
      // A build under way for this generation, not past its age: wait for it.
      const held = sites.get(view);
      if (held && held.generation === generation && Date.now() - held.at < options.maxAgeSeconds * 1000)
        return held.site;
      const next = build(view);
      sites.set(view, next);
      next.site.catch(() => {
        if (sites.get(view) === next) sites.delete(view);
      });
      return next.site;
    };

    /** The answer from a built site: the index or an artifact, 304 for a matching If-None-Match. */
    const respond = (site: Site, request: RequestHead, path: string, identity: RouteCaller["identity"]): Response => {
      const rest = path.slice(WELL_KNOWN_PATH.length + 1);
      // What one caller may see is for no shared cache.
      const cacheControl =
        identity !== undefined || signIn || catalog.restricted
          ? "private, no-cache"
          : `public, max-age=${options.maxAgeSeconds}`;
      const found =
        rest === INDEX_FILE
          ? { bytes: site.indexBytes, contentType: "application/json", etag: site.etag }
          : site.artifacts.get(rest);
      if (!found)
        return restError(404, "no such skill or file in the discovery index", { "cache-control": cacheControl });
      const headers = {
        "content-type": found.contentType,
        etag: found.etag,
        "cache-control": cacheControl,
        "x-content-type-options": "nosniff",
      };
      if (matches(request.headers.get("if-none-match"), found.etag))
        return new Response(null, { status: 304, headers });
      const init = { status: 200, headers: { ...headers, "content-length": String(found.bytes.length) } };
      return request.method === "HEAD" ? new Response(null, init) : heldBytesResponse(found.bytes, init);
    };
    /** The answer once the catalog is ready and the site built (or its build failed). */
    const respondWhenBuilt = async (request: RequestHead, path: string, { identity, catalog: view }: RouteCaller) => {
      await catalog.ready();
      let site: Site;
      try {
        site = await siteOf(view);
      } catch (error) {
        ctx.logger.error(`building the discovery index failed: ${errorMessage(error)}`);
        return restError(503, "the discovery index could not be built; the server's log has the details");
      }
      return respond(site, request, path, identity);
    };
    // A site built for this generation answers without waiting on anything.
    const answer = (request: RequestHead, path: string, caller: RouteCaller): Promise<Response> => {
      if (request.method !== "GET" && request.method !== "HEAD")
        return Promise.resolve(restError(405, "the discovery index is read-only: use GET", { allow: "GET, HEAD" }));
      const built = builtSiteOf(caller.catalog);
      return built !== undefined
        ? Promise.resolve(respond(built, request, path, caller.identity))
        : respondWhenBuilt(request, path, caller);
    };
    ctx.contribute(TOKENS.HttpRoute, { prefix: WELL_KNOWN_PATH, handle: answer });
    return {
      start(started) {
        const http = started.resolveOptional(TOKENS.HttpOptions);
        signIn = http?.authToken !== undefined || http?.oauth !== undefined;
      },
    };
  },
});

function matches(header: string | null, etag: string): boolean {
  if (header === null) return false;
  return header.split(",").some((tag) => {
    const trimmed = tag.trim();
    return trimmed === "*" || trimmed === etag || trimmed === `W/${etag}`;
  });
}

export {
  type Artifact,
  digestOf,
  INDEX_FILE,
  type PreviousArtifact,
  SiteBuilder,
  WELL_KNOWN_PATH,
  type Site,
} from "./site.js";
