import { describe, expect, it } from "vitest";
import { fullKey, keyPrefix, namespaceOf } from "../../src/cache/keys.js";
import { parseRedisUrl } from "../../src/cache/redis-url.js";

describe("cache keys", () => {
  it("carry the entry format, and give back any namespace, colons and percents included", () => {
    for (const namespace of ["fs", "fs/skill-md@0.1.0", "a:b", "100%", "%3A"]) {
      const key = fullKey("sk", namespace, "key:with:colons");
      expect(key.startsWith(keyPrefix("sk"))).toBe(true);
      expect(namespaceOf("sk", key)).toBe(namespace);
    }
    expect(keyPrefix("sk")).toBe("sk:v1:");
    expect(namespaceOf("sk", "other:v1:fs:k")).toBeUndefined();
    expect(namespaceOf("sk", "sk:v0:fs:k")).toBeUndefined();
  });
});

describe("parseRedisUrl", () => {
  it("takes redis:// and rediss:// with a host, a port and a database", () => {
    expect(parseRedisUrl("redis://127.0.0.1:6379/2").url).toBe("redis://127.0.0.1:6379/2");
    expect(parseRedisUrl("rediss://cache.example:6380").display).toBe("rediss://cache.example:6380");
  });

  it("never shows a password", () => {
    expect(parseRedisUrl("redis://user:secret@host:6379/0").display).toBe("redis://user:***@host:6379/0");
    expect(() => parseRedisUrl("redis://user:secret@host:6379/x")).toThrow(/^(?!.*secret)/);
  });

  it("refuses what is not a Redis location, saying what it expected", () => {
    expect(() => parseRedisUrl("localhost:6379")).toThrow(/not a redis:\/\/ or rediss:\/\/ URL|not a URL/);
    expect(() => parseRedisUrl("http://host:6379")).toThrow(/not a redis:\/\//);
    expect(() => parseRedisUrl("redis://host:6379/db1")).toThrow(/must be a number/);
    expect(() => parseRedisUrl("redis://host:6379/0?x=1")).toThrow(/query or fragment/);
    expect(() => parseRedisUrl("not a url")).toThrow(/not a URL/);
  });
});
