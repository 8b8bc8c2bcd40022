import { readFile } from "node:fs/promises";
import path from "node:path";
import { sourceFromFiles, z } from "skills-kernel";

/**
 * The skills of one JSON file mapping paths ("pdf/SKILL.md") to their text: a catalog in one file.
 * Its config entry also takes `visibleTo`, as every source made with sourceFromFiles does.
 */
export default sourceFromFiles({
  name: "json-bundle",
  version: "1.0.0",
  kernel: ">=0.1.0 <0.2.0",
  options: z.object({ file: z.string().min(1) }),
  async files({ file }, ctx) {
    const bundle = z
      .record(z.string(), z.string())
      .parse(JSON.parse(await readFile(path.resolve(ctx.baseDir, file), "utf8")));
    const children = (dir: string) =>
      Object.keys(bundle)
        .filter((p) => dir === "" || p.startsWith(`${dir}/`))
        .map((p) => p.slice(dir ? dir.length + 1 : 0).split("/"));
    return {
      list: async (dir) =>
        [...new Map(children(dir).map(([name, ...rest]) => [name!, rest.length ? "directory" : "file"] as const))].map(
          ([name, kind]) => ({ name, kind }),
        ),
      read: async (file) => {
        if (!Object.hasOwn(bundle, file)) throw new Error(`${file}: no such file in the bundle`);
        return new TextEncoder().encode(bundle[file]);
      },
    };
  },
});
