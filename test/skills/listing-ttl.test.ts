import { describe, expect, it } from "vitest";
import { listingTtlMs } from "../../src/skills/catalog/listing-ttl.js";

describe("the listing TTL (the caching hint of 2026-07-28 results)", () => {
  it("is an hour when nothing changes before a restart, and the shortest any source allows", () => {
    expect(listingTtlMs([{ freshness: undefined }])).toBe(3_600_000);
    expect(listingTtlMs([{ freshness: undefined }, { freshness: "announced" }])).toBe(60_000);
    expect(listingTtlMs([{ freshness: "announced" }, { freshness: { refreshMs: 5_000 } }])).toBe(5_000);
    expect(listingTtlMs([{ freshness: { refreshMs: 0 } }])).toBe(0);
    expect(listingTtlMs([])).toBe(3_600_000);
  });
});
