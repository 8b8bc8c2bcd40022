import { copyFile, readdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createDiskCache } from "../../src/remote/disk-cache.js";
import { manualClock } from "../helpers/clock.js";
import { tempDir } from "../plugins/sources/fs/files.js";

describe("the disk cache remote sources fall back to", () => {
  it("keeps JSON values across instances until their TTL, per namespace and scope", async () => {
    const dir = await tempDir();
    const time = manualClock();
    const cache = createDiskCache(dir, "http-catalog", { clock: time.clock });
    await cache.set("doc", { etag: '"v1"', body: "eA==" });
    await cache.scope("site").set("doc", "scoped");
    await cache.set("brief", 1, 1_000);
    expect(await cache.get("brief")).toBe(1);
    expect(await createDiskCache(dir, "http-catalog").get("doc")).toEqual({ etag: '"v1"', body: "eA==" });
    expect(await createDiskCache(dir, "http-catalog/site").get("doc")).toBe("scoped");
    expect(await createDiskCache(dir, "github").get("doc")).toBeUndefined();
    time.tick(1_000);
    expect(await cache.get("brief")).toBeUndefined();
    await cache.delete("doc");
    expect(await cache.get("doc")).toBeUndefined();
  });

  it("reads a damaged entry as a miss and never throws on a write it cannot make", async () => {
    const dir = await tempDir();
    const cache = createDiskCache(dir, "x");
    await cache.set("key", "value");
    const [file] = await readdir(dir);
    await writeFile(join(dir, file!), "{ not json");
    expect(await cache.get("key")).toBeUndefined();
    const unwritable = createDiskCache(join(dir, file!, "below-a-file"), "x");
    await expect(unwritable.set("key", "value")).resolves.toBeUndefined();
    expect(await unwritable.get("key")).toBeUndefined();
  });

  it("reads an entry copied under another namespace's name as a miss", async () => {
    const dir = await tempDir();
    await createDiskCache(dir, "fs/snapshot-v2@0.0.1").set("root", "old release");
    const [old] = await readdir(dir);
    const current = createDiskCache(dir, "fs/snapshot-v2@0.0.2");
    await current.set("root", "this release");
    const mine = (await readdir(dir)).find((name) => name !== old)!;
    await copyFile(join(dir, old!), join(dir, mine));
    expect(await current.get("root")).toBeUndefined();
  });

  it("keeps within its bound, deleting the entries written longest ago", async () => {
    const dir = await tempDir();
    const cache = createDiskCache(dir, "x", { maxBytes: 1_000 });
    for (const key of ["a", "b", "c", "d", "e"]) await cache.set(key, key.repeat(300));
    const sizes = await Promise.all((await readdir(dir)).map(async (name) => (await stat(join(dir, name))).size));
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBeLessThanOrEqual(1_000);
    expect(await cache.get("e")).toBe("e".repeat(300));
    expect(await cache.get("a")).toBeUndefined();
  });
});
