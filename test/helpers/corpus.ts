import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * A folder of skills laid out as ../shared/corpus is: one `owner__repo/` folder per repository,
 * MANIFEST.tsv (a row per skill) and ANOMALIES.txt (the problems each skill has).
 */
export interface Corpus {
  /** Where it is, as test titles name it. */
  readonly label: string;
  readonly dir: string;
  /** The shared corpus is absent from a user's clone: its tests are then skipped, saying why. */
  readonly present: boolean;
  /** A test title, with the reason when the corpus is absent and the test skipped. */
  title(text: string): string;
}

function corpus(label: string, dir: string): Corpus {
  const present = existsSync(join(dir, "MANIFEST.tsv"));
  return { label, dir, present, title: (text) => (present ? text : `${text} (skipped: ${dir} is absent)`) };
}

/** The invented skills of test/fixtures/corpus: every checkout has them. */
export const FIXTURE_CORPUS = corpus(
  "test/fixtures/corpus",
  fileURLToPath(new URL("../fixtures/corpus", import.meta.url)),
);
/** The 700 real skills beside the checkout (SKILLS_KERNEL_SHARED names another ../shared, e.g. from a git worktree). */
export const SHARED_CORPUS = corpus(
  "../shared/corpus",
  join(process.env.SKILLS_KERNEL_SHARED ?? fileURLToPath(new URL("../../../shared", import.meta.url)), "corpus"),
);
/** Corpus tests run on both: the fixture always, so it is kept honest, and the real skills when present. */
export const CORPORA: readonly Corpus[] = [FIXTURE_CORPUS, SHARED_CORPUS];

export interface ManifestRow {
  readonly repo: string;
  /** The skill's folder inside its repository. */
  readonly path: string;
  /** Its frontmatter name; empty when it has none. */
  readonly name: string;
}

export function readManifest({ dir }: Corpus): ManifestRow[] {
  return readFileSync(join(dir, "MANIFEST.tsv"), "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((row) => {
      const [repo, , path, name] = row.split("\t");
      return { repo: repo!, path: path!, name: name ?? "" };
    });
}

/** Where a manifest row's skill is, relative to the corpus folder, as a loader reports it. */
export const corpusPath = (repo: string, path: string) => `${repo.replace("/", "__")}/${path}`;

export interface Anomaly {
  readonly kind: string;
  readonly repo: string;
  readonly path: string;
  readonly detail: string;
}

/** ANOMALIES.txt's DETAILS section: a `-- kind (count) --` header, then one `repo<TAB>path<TAB>detail` line per skill. */
export function readAnomalies({ dir }: Corpus): Anomaly[] {
  const anomalies: Anomaly[] = [];
  let kind: string | undefined;
  for (const line of readFileSync(join(dir, "ANOMALIES.txt"), "utf8").split("\n")) {
    const header = /^-- (\S+) \(\d+\) --$/.exec(line);
    if (header) kind = header[1];
    const [repo, path, detail] = line.split("\t");
    if (kind && repo && path && detail !== undefined) anomalies.push({ kind, repo, path, detail });
  }
  return anomalies;
}

/**
 * The skill names a corpus should serve, derived from its own MANIFEST.tsv and ANOMALIES.txt
 * rather than from our loader: every manifest row except the skills the rules skip (no
 * frontmatter or no description).
 */
export function expectedCorpusNames(corpus: Corpus, keep: (row: ManifestRow) => boolean = () => true): string[] {
  const skipped = new Set(
    readAnomalies(corpus)
      .filter(({ kind }) => kind === "no-frontmatter" || kind === "missing-description")
      .map(({ repo, path }) => `${repo}\t${path}`),
  );
  return readManifest(corpus)
    .filter((row) => !skipped.has(`${row.repo}\t${row.path}`) && keep(row))
    .map(({ name }) => name)
    .sort();
}

/**
 * The names list_skills offers the model: every served skill but those whose frontmatter says
 * `disable-model-invocation: true` (Claude Code's field; still readable by name, never listed).
 */
export function offeredCorpusNames(corpus: Corpus): string[] {
  return expectedCorpusNames(
    corpus,
    ({ repo, path }) =>
      !/^disable-model-invocation:\s*true\s*$/m.test(
        frontmatterOf(join(corpus.dir, corpusPath(repo, path), "SKILL.md")),
      ),
  );
}

function frontmatterOf(file: string): string {
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  return /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? "";
}

/** The anomaly kinds that break the Agent Skills spec (every other kind leaves a skill valid). */
export const INVALID_KINDS: ReadonlySet<string> = new Set([
  "metadata-has-non-string-values",
  "name-dir-mismatch",
  "description>1024-chars",
  "no-frontmatter",
  "missing-name",
  "missing-description",
]);

/** How many of a corpus's skills its ANOMALIES.txt says are invalid under the spec. */
export function invalidCount(corpus: Corpus): number {
  return new Set(
    readAnomalies(corpus)
      .filter(({ kind }) => INVALID_KINDS.has(kind))
      .map(({ repo, path }) => `${repo}\t${path}`),
  ).size;
}
