import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { context, propagation, trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKernel, createLogger, definePlugin, type SkillsKernel } from "../../src/index.js";
import { fetchIn, inProcessFetch } from "../helpers/embedded-http.js";

/** A tool with a bug: MCP answers it as a tool error, REST as a 500, both after the same tool span. */
const failing = definePlugin({
  name: "failing",
  setup(ctx) {
    ctx.addTool({
      name: "list_skills",
      description: "A list_skills with a bug: it always throws.",
      // Over HTTP, only a tool that says it does not write is served without writeTools.
      annotations: { readOnlyHint: true },
      handler: () => {
        throw new TypeError("a bug");
      },
    });
  },
});

const SKILLS = fileURLToPath(new URL("../../examples/skills", import.meta.url));
const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT_ID = "00f067aa0ba902b7";

/**
 * The host app's side: it installs the OpenTelemetry SDK (here with an in-memory exporter), and
 * the kernel, which depends on @opentelemetry/api alone, reports into it.
 */
describe("tracing through the host's OpenTelemetry SDK", () => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  let kernel: SkillsKernel;
  let client: Client;

  beforeAll(async () => {
    provider.register();
    kernel = await createKernel({
      logger: createLogger("silent"),
      config: { plugins: [["fs", { roots: [SKILLS] }], "search-skills", "http", "rest-api", failing] },
      baseDir: SKILLS,
    });
    // In process, as an app embedding the kernel answers.
    const transport = new StreamableHTTPClientTransport(new URL("http://127.0.0.1/mcp"), {
      fetch: inProcessFetch(kernel),
    });
    client = new Client(
      { name: "tracing-test", version: "0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(transport);
  });

  afterAll(async () => {
    await client?.close();
    await kernel?.close();
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  });

  it("continues the client's traceparent from _meta: a request span, and the tool's span inside it", async () => {
    exporter.reset();
    const result = await client.callTool({
      name: "search_skills",
      arguments: { query: "changelog" },
      _meta: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01`, tracestate: "vendor=1" },
    });
    expect(result.isError).toBeFalsy();
    const spans = exporter.getFinishedSpans();
    const request = spans.find((span) => span.name === "tools/call search_skills");
    const tool = spans.find((span) => span.name === "execute_tool search_skills");
    expect(request, spans.map((span) => span.name).join(", ")).toBeDefined();
    expect(request!.spanContext().traceId).toBe(TRACE_ID);
    expect(request!.parentSpanContext?.spanId).toBe(PARENT_ID);
    expect(request!.parentSpanContext?.isRemote).toBe(true);
    expect(request!.spanContext().traceState?.get("vendor")).toBe("1");
    expect(request!.attributes).toMatchObject({ "mcp.method.name": "tools/call", "gen_ai.tool.name": "search_skills" });
    expect(tool!.spanContext().traceId).toBe(TRACE_ID);
    expect(tool!.parentSpanContext?.spanId).toBe(request!.spanContext().spanId);
  });

  it("runs a REST call's tool in the same tool span as MCP's", async () => {
    exporter.reset();
    const response = await fetchIn(kernel, "/v1/skills/search?q=pdf");
    expect(response.status).toBe(200);
    expect(exporter.getFinishedSpans().map((span) => span.name)).toContain("execute_tool search_skills");
  });

  it("answers a tool's bug with a 500 over REST and a tool error over MCP, each after its tool span", async () => {
    exporter.reset();
    const response = await fetchIn(kernel, "/v1/skills");
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain("a bug");
    const viaMcp = await client.callTool({ name: "list_skills", arguments: {} });
    expect(viaMcp).toMatchObject({
      isError: true,
      content: [{ text: "list_skills: internal error; the server's log has the details" }],
    });
    expect(exporter.getFinishedSpans().filter((span) => span.name === "execute_tool list_skills")).toHaveLength(2);
  });

  it("starts a trace of its own for a request that carries none, and marks a failure", async () => {
    exporter.reset();
    const result = await client.callTool({ name: "search_skills", arguments: { query: "" } });
    expect(result.isError).toBe(true);
    const request = exporter.getFinishedSpans().find((span) => span.name === "tools/call search_skills");
    expect(request!.spanContext().traceId).not.toBe(TRACE_ID);
    expect(request!.parentSpanContext).toBeUndefined();
    expect(request!.attributes["error.type"]).toBe("tool_error");
  });
});
