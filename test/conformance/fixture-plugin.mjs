// The fixtures the official MCP conformance suite calls by name (test_simple_text,
// test://static-text...), added through the plugin API as any third-party plugin would. The suite
// checks the protocol and the transport; these give its scenarios something to call.
import { ResourceTemplate } from "@modelcontextprotocol/server";

// A 1x1 PNG and a tiny WAV header: the scenarios check the shape, not the picture or the sound.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=";
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const text = (value) => ({ content: [{ type: "text", text: value }] });

export default {
  name: "conformance-fixtures",
  setup(ctx) {
    const tools = {
      test_simple_text: () => text("This is a simple text response for testing."),
      test_image_content: () => ({ content: [{ type: "image", data: PNG, mimeType: "image/png" }] }),
      test_audio_content: () => ({ content: [{ type: "audio", data: WAV, mimeType: "audio/wav" }] }),
      test_embedded_resource: () => ({
        content: [{ type: "resource", resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." } }],
      }),
      test_multiple_content_types: () => ({
        content: [
          { type: "text", text: "Multiple content types test:" },
          { type: "image", data: PNG, mimeType: "image/png" },
          { type: "resource", resource: { uri: "test://mixed-content-resource", mimeType: "application/json", text: '{"test":"data","value":123}' } },
        ],
      }),
      test_error_handling: () => ({ isError: true, content: [{ type: "text", text: "This tool intentionally returns an error for testing" }] }),
      test_tool_with_logging: async (_args, { context }) => {
        for (const [i, data] of ["Tool execution started", "Tool processing data", "Tool execution completed"].entries()) {
          if (i > 0) await sleep(50);
          await context.mcpReq.log("info", data);
        }
        return text("Tool with logging executed successfully");
      },
      test_tool_with_progress: async (_args, { context }) => {
        const progressToken = context.mcpReq._meta?.progressToken;
        for (const [i, progress] of [0, 50, 100].entries()) {
          if (i > 0) await sleep(50);
          if (progressToken !== undefined) await context.mcpReq.notify({ method: "notifications/progress", params: { progressToken, progress, total: 100 } });
        }
        return text("Tool with progress executed successfully");
      },
    };
    for (const [name, handler] of Object.entries(tools)) ctx.addTool({ name, description: `conformance fixture ${name}`, handler });

    ctx.extendServer((server) => {
      server.registerResource("static-text", "test://static-text", { description: "conformance fixture", mimeType: "text/plain" }, async (uri) => ({
        contents: [{ uri: uri.href, mimeType: "text/plain", text: "This is the content of the static text resource." }],
      }));
      server.registerResource("static-binary", "test://static-binary", { description: "conformance fixture", mimeType: "image/png" }, async (uri) => ({
        contents: [{ uri: uri.href, mimeType: "image/png", blob: PNG }],
      }));
      server.registerResource(
        "template",
        new ResourceTemplate("test://template/{id}/data", { list: undefined }),
        { description: "conformance fixture", mimeType: "application/json" },
        async (uri, { id }) => ({
          contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }],
        }),
      );
    });
  },
};
