// A stdio MCP server with one tool whose schema a strict client refuses (a
// bare `true`). make inspector-check runs the Inspector on it first: --strict
// must fail it (exit 6), or the check of e2e-mcp would prove nothing.
import { createInterface } from "node:readline";

const tool = {
  name: "unportable",
  description: "Takes anything.",
  inputSchema: { type: "object", properties: { anything: true } },
};

function send(msg) {
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...msg }) + "\n");
}

for await (const line of createInterface({ input: process.stdin })) {
  const msg = JSON.parse(line);
  if (msg.id === undefined) continue; // a notification
  if (msg.method === "initialize") {
    send({
      id: msg.id,
      result: {
        protocolVersion: msg.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: "unportable", version: "1" },
      },
    });
  } else if (msg.method === "tools/list") {
    send({ id: msg.id, result: { tools: [tool] } });
  } else {
    send({ id: msg.id, error: { code: -32601, message: "method not found" } });
  }
}
