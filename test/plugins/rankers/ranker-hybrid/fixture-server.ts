import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A loopback stand-in for an OpenAI-compatible embeddings endpoint. Its "model" embeds a text as
 * counts of its words over 64 dimensions, words of one group sharing a dimension: the groups play
 * the part of what a real model knows (that "nightfall" is near "dusk"). `mode` makes it fail in
 * the ways a real endpoint can.
 */
export const GROUPS: readonly (readonly string[])[] = [
  ["nightfall", "dusk", "twilight", "sunset"],
  ["money", "invoice", "billing", "payment"],
];

export type FixtureMode = "ok" | "500" | "not-json" | "wrong-count" | "bad-number" | "ragged" | "slow";

export interface EmbeddingsFixture {
  readonly url: string;
  /** Every request body received, in order. */
  readonly requests: { input: string[]; model: string; headers: IncomingHttpHeaders }[];
  mode: FixtureMode;
  close(): Promise<void>;
}

const DIMENSIONS = 64;

function hash(word: string): number {
  let h = 2166136261;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
  return (h >>> 0) % (DIMENSIONS - GROUPS.length);
}

export function fixtureEmbedding(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    const group = GROUPS.findIndex((g) => g.includes(word));
    vector[group >= 0 ? DIMENSIONS - 1 - group : hash(word)]! += 1;
  }
  return vector;
}

export async function startEmbeddingsFixture(): Promise<EmbeddingsFixture> {
  const requests: EmbeddingsFixture["requests"] = [];
  let server: Server;
  const fixture: EmbeddingsFixture = {
    url: "",
    requests,
    mode: "ok",
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/embeddings") {
        res.writeHead(404).end("not found");
        return;
      }
      const { input, model } = JSON.parse(body) as { input: string[]; model: string };
      requests.push({ input, model, headers: req.headers });
      const data = input.map((text, index) => ({ object: "embedding", index, embedding: fixtureEmbedding(text) }));
      const send = (status: number, payload: string) =>
        res.writeHead(status, { "content-type": "application/json" }).end(payload);
      switch (fixture.mode) {
        case "500":
          return send(500, '{"error":"model not loaded"}');
        case "not-json":
          return send(200, "<html>");
        case "wrong-count":
          return send(200, JSON.stringify({ data: data.slice(1) }));
        case "bad-number":
          return send(200, JSON.stringify({ data: data.map((d) => ({ ...d, embedding: ["x"] })) }));
        case "ragged":
          return send(200, JSON.stringify({ data: data.map((d, i) => ({ ...d, embedding: d.embedding.slice(i) })) }));
        case "slow":
          setTimeout(() => send(200, JSON.stringify({ data })), 2000).unref();
          return;
        default:
          return send(200, JSON.stringify({ object: "list", data, model }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  (fixture as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fixture;
}
