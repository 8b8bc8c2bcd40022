/**
 * Where vectors come from. One small interface, so a provider other than an OpenAI-compatible
 * endpoint (an in-process model, another API) is one class away.
 */
export interface EmbeddingsProvider {
  /** A label for logs: the endpoint and model. */
  readonly description: string;
  /** One vector per text, in order, all of one length. */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

export interface OpenAiEmbeddingsOptions {
  /** The API's base URL, e.g. http://127.0.0.1:11434/v1 (Ollama) or https://api.openai.com/v1. */
  readonly url: string;
  readonly model: string;
  /** Sent as a bearer token when set. */
  readonly apiKey?: string;
  readonly timeoutMs: number;
}

/** A failed embeddings call, with what went wrong in one line. */
export class EmbeddingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EmbeddingsError";
  }
}

/** A response larger than this is not an embeddings answer for the batches sent here. */
const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/**
 * The `/embeddings` endpoint of the OpenAI API, which Ollama, llama.cpp's server, vLLM and LM
 * Studio also offer: `POST {url}/embeddings` with `{ model, input: [texts] }`, answered by
 * `{ data: [{ index, embedding: number[] }] }`. The answer is untrusted: its shape and sizes are
 * checked before any vector is used.
 */
export class OpenAiEmbeddings implements EmbeddingsProvider {
  readonly description: string;
  readonly #endpoint: string;
  readonly #options: OpenAiEmbeddingsOptions;

  constructor(options: OpenAiEmbeddingsOptions) {
    this.#options = options;
    this.#endpoint = `${options.url.replace(/\/+$/, "")}/embeddings`;
    this.description = `${this.#endpoint} (${options.model})`;
  }

  async embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const timeout = AbortSignal.timeout(this.#options.timeoutMs);
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (this.#options.apiKey) headers.authorization = `Bearer ${this.#options.apiKey}`;
    let response: Response;
    try {
      response = await fetch(this.#endpoint, {
        method: "POST",
        headers,
        body: JSON.stringify({ model: this.#options.model, input: texts }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      if (timeout.aborted)
        throw new EmbeddingsError(`${this.description} did not answer within ${this.#options.timeoutMs} ms`);
      throw new EmbeddingsError(`${this.description} could not be reached: ${(error as Error).message}`);
    }
    const length = Number(response.headers.get("content-length") ?? 0);
    if (length > MAX_RESPONSE_BYTES) throw new EmbeddingsError(`${this.description} answered with ${length} bytes`);
    if (!response.ok) {
      const text = (await response.text()).slice(0, 200).replace(/\s+/g, " ");
      throw new EmbeddingsError(`${this.description} answered HTTP ${response.status}: ${text}`);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw new EmbeddingsError(`${this.description} answered with something other than JSON`);
    }
    return vectorsOf(body, texts.length, this.description);
  }
}

function vectorsOf(body: unknown, count: number, from: string): Float32Array[] {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data) || data.length !== count) {
    throw new EmbeddingsError(`${from} answered without ${count} embeddings in "data"`);
  }
  const vectors: Float32Array[] = new Array(count);
  let dimensions = -1;
  for (const [position, item] of data.entries()) {
    const { index = position, embedding } = (item ?? {}) as { index?: unknown; embedding?: unknown };
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= count || vectors[index]) {
      throw new EmbeddingsError(`${from} answered with a bad index in data[${position}]`);
    }
    if (
      !Array.isArray(embedding) ||
      embedding.length === 0 ||
      !embedding.every((x) => typeof x === "number" && Number.isFinite(x))
    ) {
      throw new EmbeddingsError(`${from} answered with a bad embedding in data[${position}]`);
    }
    if (dimensions !== -1 && embedding.length !== dimensions) {
      throw new EmbeddingsError(`${from} answered with embeddings of different lengths`);
    }
    dimensions = embedding.length;
    vectors[index] = normalized(Float32Array.from(embedding));
  }
  return vectors;
}

/** Unit length, so cosine similarity is a dot product. */
function normalized(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const x of vector) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}

export function dot(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}
