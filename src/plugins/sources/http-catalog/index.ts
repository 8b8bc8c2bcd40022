import { posix } from "node:path";
import { z } from "zod";
import { PluginError } from "../../../kernel/errors.js";
import { remoteSource } from "../../../kit/remote-source.js";
import { RemoteDocuments } from "../../../remote/documents.js";
import { remoteLimitsSchema } from "../../../remote/options.js";
import { refusePrivateAddressesSchema } from "../../../remote/address-guard.js";
import { visibilitySchema } from "../../../skills/catalog/visibility.js";
import { MiB } from "../../../skills/files/skill-files.js";
import { DEFAULT_UNPACK_LIMITS } from "../../../skills/archives/unpack.js";
import { createCatalogSource } from "./source.js";

const catalogSchema = z.union([
  z.string().min(1),
  z.strictObject({
    /** The catalog JSON, or a site whose /.well-known/agent-skills/index.json (then /.well-known/skills/index.json) is read. */
    url: z.string().min(1),
    /** The source's name; the catalog's host by default. */
    name: z.string().min(1).optional(),
    /** Which shape the document has; told apart by whether entries have a `path` when "auto". */
    format: z.enum(["auto", "agent-skills", "well-known"]).default("auto"),
    /** agent-skills shape: the URL skill folders (`path`) are relative to; `skills/` beside the catalog by default. */
    filesBaseUrl: z.string().min(1).optional(),
    /** Sent with every request to this catalog's origin, `filesBaseUrl`'s and `headerHosts` (an Authorization header); never to a host the catalog names. */
    headers: z.record(z.string(), z.string()).optional(),
    /** Hosts (`cdn.example.com`, or `host:port`) that also get `headers` (over https when the catalog is), for a 0.2.0 index's artifacts or a redirect. */
    headerHosts: z.array(z.string().min(1)).optional(),
    /** Hosts (`cdn.example.com`, or `host:port`) a redirect may lead to besides the catalog's own origin; they get none of the headers. */
    redirectHosts: z.array(z.string().min(1)).optional(),
    /** Who sees this catalog's skills (docs/security.md#per-team-visibility). */
    visibleTo: visibilitySchema.optional(),
  }),
]);

type CatalogOptions = Exclude<z.infer<typeof catalogSchema>, string>;

export const httpCatalogOptionsSchema = z.strictObject({
  /** Each catalog is one source. */
  catalogs: z.array(catalogSchema).min(1),
  /** How long a fetched catalog (and each file without a content hash) is used before it is revalidated. */
  ttlMs: z
    .number()
    .int()
    .min(0)
    .default(10 * 60 * 1000),
  /** The largest catalog document read. */
  maxCatalogBytes: z
    .number()
    .int()
    .min(1)
    .default(16 * MiB),
  /** Connect to no loopback, link-local or private address but those of the hosts named (add_skill sets it for callers over HTTP). Narrows, so needs no trust. */
  refusePrivateAddresses: refusePrivateAddressesSchema.optional(),
  ...remoteLimitsSchema,
});

/**
 * Serves skills listed by JSON catalogs over HTTP: the agent-skills registry shape, the Agent
 * Skills discovery 0.2.0 index (skill-md and archive entries, digests checked) and the older
 * RFC 8615 well-known index.
 */
export default remoteSource({
  name: "http-catalog",
  options: httpCatalogOptionsSchema,
  needsTrust: { options: { catalogs: "they are fetched over the network, with their headers" } },
  setup(ctx, options, remote) {
    const entries = options.catalogs.map((entry) => {
      const settings: CatalogOptions = typeof entry === "string" ? { url: entry, format: "auto" } : entry;
      const candidates = catalogUrls(settings.url);
      return { settings, url: candidates[0]!, candidates };
    });
    // Catalogs named after their host get -2, -3… when one host serves several (as fs does for folders).
    const names = remote.sourceNames(
      entries.map(({ settings, url }) => ({
        explicit: settings.name,
        fallback: new URL(url).host.replace(/[^A-Za-z0-9._-]/g, "-"),
      })),
    );
    for (const [index, { settings, url, candidates }] of entries.entries()) {
      const name = names[index]!;
      const http = remote.http({
        name,
        headers: settings.headers,
        home: url,
        // filesBaseUrl comes from the config, as headerHosts do: the agent-skills shape's files live there.
        headerHosts: [...(settings.headerHosts ?? []), ...filesHost(settings.filesBaseUrl, url)],
        redirectHosts: settings.redirectHosts,
      });
      remote.add(
        createCatalogSource({
          ...options,
          name,
          url,
          candidates,
          unpackLimits: DEFAULT_UNPACK_LIMITS,
          format: settings.format,
          filesBaseUrl: settings.filesBaseUrl,
          http,
          documents: new RemoteDocuments(http, remote.cache(name)),
          logger: ctx.logger,
        }),
        settings.visibleTo,
      );
    }
  },
});

/** filesBaseUrl's host (and port), resolved against the catalog's URL as the source resolves it. */
function filesHost(filesBaseUrl: string | undefined, catalogUrl: string): string[] {
  if (filesBaseUrl === undefined) return [];
  try {
    return [new URL(filesBaseUrl, catalogUrl).host];
  } catch {
    throw new PluginError("http-catalog", `filesBaseUrl "${filesBaseUrl.slice(0, 200)}" is not a URL`, { exitCode: 2 });
  }
}

const WELL_KNOWN_FOLDERS = [".well-known/agent-skills", ".well-known/skills"];

/**
 * The documents to try, in order: a URL ending in .json as given; a well-known folder's
 * index.json; any other URL is a site (or a folder of one) whose 0.2.0 index
 * (/.well-known/agent-skills) is read, then the older /.well-known/skills, as the skills CLI does.
 */
export function catalogUrls(text: string): string[] {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new PluginError("http-catalog", `"${text.slice(0, 200)}" is not a URL`, { exitCode: 2 });
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new PluginError("http-catalog", `"${text.slice(0, 200)}" is not an http(s) URL`, { exitCode: 2 });
  }
  if (url.pathname.endsWith(".json")) return [url.href];
  const folder = /^(.*?\/\.well-known\/(?:agent-skills|skills))(?:\/|$)/.exec(url.pathname);
  if (folder) return [new URL(`${folder[1]}/index.json`, url).href];
  return WELL_KNOWN_FOLDERS.map((path) => new URL(posix.join(url.pathname, path, "index.json"), url).href);
}
