import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach } from "vitest";

const created: string[] = [];
afterEach(async () => {
  await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

export async function tempDir(prefix = "skills-kernel-git-"): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/** git with an identity and no user or system config, so the machine's settings never leak in. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    "git",
    [
      "-c",
      "user.name=Test",
      "-c",
      "user.email=test@example.com",
      "-c",
      "init.defaultBranch=main",
      "-c",
      "protocol.file.allow=always",
      ...args,
    ],
    {
      cwd,
      encoding: "utf8",
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
    },
  );
}

export interface TestRepository {
  /** file:// URL of the bare repository. */
  readonly url: string;
  readonly bare: string;
  readonly work: string;
  /** Write files (path → content) in the work tree, commit and push; returns the new commit. */
  commit(files: Record<string, string>, message?: string): Promise<string>;
}

/**
 * A bare repository that serves partial clones (uploadpack.allowFilter), and a work tree pushing
 * to it; in a temporary folder removed after the test, or under `base` (for a beforeAll).
 */
export async function createRepository(files: Record<string, string>, base?: string): Promise<TestRepository> {
  base = base === undefined ? await tempDir() : await mkdtemp(join(base, "repo-"));
  const bare = join(base, "origin.git");
  const work = join(base, "work");
  await mkdir(work);
  git(base, "init", "-q", "--bare", bare);
  git(bare, "config", "uploadpack.allowFilter", "true");
  git(bare, "symbolic-ref", "HEAD", "refs/heads/main");
  git(work, "init", "-q");
  const repository: TestRepository = {
    url: pathToFileURL(bare).href,
    bare,
    work,
    async commit(more, message = "change") {
      for (const [path, content] of Object.entries(more)) {
        await mkdir(dirname(join(work, path)), { recursive: true });
        await writeFile(join(work, path), content);
      }
      git(work, "add", "-A");
      git(work, "commit", "-q", "-m", message);
      git(work, "push", "-q", bare, "HEAD:refs/heads/main");
      return git(work, "rev-parse", "HEAD").trim();
    },
  };
  await repository.commit(files, "first");
  return repository;
}

export function skill(name: string, description = `The ${name} skill.`): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`;
}
