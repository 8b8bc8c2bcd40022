import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSource } from "../../src/lifecycle/source-spec.js";

describe("parseSource: archives", () => {
  let cwd: string;
  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), "sk-source-spec-"));
    await writeFile(join(cwd, "team.tgz"), "");
  });
  afterAll(() => rm(cwd, { recursive: true, force: true }));

  it("takes a file ending in .tar.gz, .tgz or .zip as an archive, with @skill", () => {
    expect(parseSource("./team.tgz@pdf", cwd)).toEqual({
      spec: { kind: "archive", written: "./team.tgz@pdf", location: join(cwd, "team.tgz") },
      skill: "pdf",
    });
    expect(parseSource("team.tgz", cwd).spec).toMatchObject({ kind: "archive", location: join(cwd, "team.tgz") });
  });

  it("takes an http(s) URL whose path ends so as an archive, on any host, query and all", () => {
    for (const url of [
      "https://example.com/skills.tar.gz",
      "http://127.0.0.1:8080/x.ZIP?v=2",
      "https://github.com/acme/skills/archive/refs/heads/main.zip",
    ]) {
      expect(parseSource(url, cwd).spec).toEqual({ kind: "archive", written: url, location: url });
    }
    expect(parseSource("https://example.com/skills", cwd).spec.kind).toBe("catalog");
  });

  it("refuses a missing file, another scheme and a password in the URL", () => {
    expect(() => parseSource("./missing.zip", cwd)).toThrow(/missing\.zip is not a file/);
    expect(() => parseSource("ftp://example.com/x.zip", cwd)).toThrow(/neither an archive file nor an http\(s\) URL/);
    expect(() => parseSource("https://me:secret@example.com/x.zip", cwd)).toThrow(/holds no user name or password/);
    expect(() => parseSource("https://me:secret@example.com/x.zip", cwd)).not.toThrow(/secret/);
  });
});
