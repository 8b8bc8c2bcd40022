/**
 * The Agent Skills discovery index, version 0.2.0 (agentskills.io, "Well-Known URI"): what
 * `/.well-known/agent-skills/index.json` holds. The publisher (the `well-known` plugin, `export`)
 * and the readers (`http-catalog`, `add`) share these types.
 */
export const DISCOVERY_SCHEMA = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";

export type DiscoveryEntryType = "skill-md" | "archive";

export interface DiscoveryEntry {
  readonly name: string;
  readonly type: DiscoveryEntryType;
  readonly description: string;
  /** The artifact: relative to the index, path-absolute or absolute (RFC 3986). */
  readonly url: string;
  /** `sha256:{64 hex}` of the artifact's exact bytes. */
  readonly digest: string;
  readonly version?: string;
}

export interface DiscoveryIndex {
  readonly $schema: typeof DISCOVERY_SCHEMA;
  readonly skills: readonly DiscoveryEntry[];
}
