import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { toNodeHandler } from "../../../../src/plugins/transports/http/listen.js";
import { heldBytesResponse } from "../../../../src/plugins/transports/http/respond.js";

// Node's listener answers GET and HEAD itself: held bytes go to the socket as they are, and the
// answer's headers arrive as the app set them.

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

async function serve(answer: () => Response): Promise<string> {
  server = createServer(toNodeHandler(async () => answer(), 1024));
  await new Promise<void>((done) => server!.listen(0, "127.0.0.1", done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

describe("toNodeHandler on GET and HEAD", () => {
  it("writes held bytes with their headers, each Set-Cookie its own", async () => {
    const url = await serve(() => {
      const headers = new Headers({ "content-type": "application/zip" });
      headers.append("set-cookie", "a=1; Path=/");
      headers.append("set-cookie", "b=2; Path=/");
      return heldBytesResponse(new TextEncoder().encode("held bytes"), { status: 200, headers });
    });
    const got = await fetch(url);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("application/zip");
    expect(got.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    expect(await got.text()).toBe("held bytes");
    const head = await fetch(url, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("pipes any other body", async () => {
    const url = await serve(() => new Response("a stream", { status: 201 }));
    const got = await fetch(url);
    expect(got.status).toBe(201);
    expect(await got.text()).toBe("a stream");
  });
});
