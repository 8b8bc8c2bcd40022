import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SkillsKernel } from "../../../../src/create-kernel.js";
import { PARAMETERS } from "../../../../src/plugins/routes/rest-api/openapi.js";
import { bootExamples } from "../../transports/http/in-process.js";

interface Parameter {
  name: string;
  in: string;
  required: boolean;
  description?: string;
  schema: Record<string, unknown>;
}

describe("the REST API's OpenAPI document", () => {
  let kernel: SkillsKernel;
  let client: Client;

  beforeAll(async () => {
    kernel = await bootExamples();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await kernel.createMcpServer().connect(serverSide);
    client = new Client({ name: "test", version: "0" });
    await client.connect(clientSide);
  });
  afterAll(async () => {
    await client?.close();
    await kernel?.close();
  });

  it("takes each parameter's schema, description and requiredness from the MCP inputSchema of its tool", async () => {
    const response = await kernel.fetch(
      new Request("http://localhost/v1/openapi.json", { headers: { host: "localhost" } }),
    );
    expect(response.status, await response.clone().text()).toBe(200);
    const document = (await response.json()) as {
      paths: Record<string, { get: { parameters: Parameter[] } }>;
    };
    const inputs = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool.inputSchema]));
    expect(Object.keys(document.paths)).toEqual(Object.keys(PARAMETERS));
    let compared = 0;
    for (const [endpoint, { tool, path = {}, query = {} }] of Object.entries(PARAMETERS)) {
      const input = inputs.get(tool)!;
      const parameters = document.paths[endpoint]!.get.parameters;
      expect(
        parameters.map((parameter) => parameter.name),
        endpoint,
      ).toEqual([...Object.keys(path), ...Object.keys(query)]);
      for (const parameter of parameters) {
        const field = (parameter.in === "path" ? path : query)[parameter.name]!;
        const { description, ...property } = (input.properties as Record<string, Record<string, unknown>>)[field]!;
        expect(parameter.schema, `${endpoint} ${parameter.name}`).toEqual(
          property.type === "array" ? property.items : property,
        );
        expect(parameter.description).toBe(description);
        expect(parameter.required).toBe(parameter.in === "path" || (input.required ?? []).includes(field));
        compared++;
      }
    }
    expect(compared).toBe(7);
  });
});
