// An MCP client from outside Go (the official TypeScript SDK) drives pt serve
// over stdio or streamable HTTP and prints what it saw as one JSON object.
// Usage: node client.mjs stdio PT_BINARY SPACE_DIR
//        node client.mjs http URL TOKEN
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [mode, a, b] = process.argv.slice(2);
const transport = mode === "stdio"
  ? new StdioClientTransport({ command: a, args: ["serve", "--kb", b], stderr: "inherit" })
  : new StreamableHTTPClientTransport(new URL(a), { requestInit: { headers: { Authorization: `Bearer ${b}` } } });
const client = new Client({ name: `ts-e2e-${mode}`, version: "1.0.0" });
await client.connect(transport);

const out = { instructions: client.getInstructions() ?? "" };
const tools = await client.listTools();
out.tools = tools.tools.map((t) => ({ name: t.name, readOnly: t.annotations?.readOnlyHint ?? false, output: !!t.outputSchema }));
const q = await client.callTool({ name: "query_knowledge_base", arguments: { question: "why is the index keyed by commit" } });
out.query = { isError: !!q.isError, sufficient: q.structuredContent?.sufficient, top: q.structuredContent?.results?.[0]?.path ?? "" };
const ing = await client.callTool({ name: "ingest_source", arguments: {
  title: `Note from the ${mode} TypeScript client`, approved_by: "dana",
  body: `The TypeScript SDK client ingested this over ${mode}.` } });
out.ingest = { isError: !!ing.isError, batch: ing.structuredContent?.batch ?? "", text: ing.content?.[0]?.text ?? "" };
out.lifecycle = await lifecycle(client, mode);
const bad = await client.callTool({ name: "read_page", arguments: { path: "../outside.md" } });
out.bad = { isError: !!bad.isError, text: bad.content?.[0]?.text ?? "" };
try {
  await client.callTool({ name: "no_such_tool", arguments: {} });
  out.unknownTool = "no error";
} catch (e) {
  out.unknownTool = String(e.message ?? e);
}
const hub = await client.readResource({ uri: "kb://hub" });
out.hub = hub.contents[0].text.includes("kind: hub");
const tmpl = await client.listResourceTemplates();
out.template = tmpl.resourceTemplates[0]?.uriTemplate ?? "";
const prompt = await client.getPrompt({ name: "consult-the-kb", arguments: { task: "add retries" } });
out.prompt = prompt.messages[0].content.text.includes("query_knowledge_base");
await client.close();
console.log(JSON.stringify(out));

// lifecycle retires knowledge through the destructive tools, each a preview
// first and then a call carrying its confirm_token: supersede one note by
// another, retract a third, make the successor obsolete and archive it.
async function lifecycle(client, mode) {
  const source = async (title, body) => {
    const r = await client.callTool({ name: "ingest_source", arguments: { title, body, approved_by: "dana" } });
    return r.structuredContent?.pages?.find((p) => p.role === "source")?.path ?? "";
  };
  const oldNote = await source(`Flaky test policy ${mode}`, `Quarantine a flaky test after three failures (${mode}).`);
  const newNote = await source(`Flaky test policy ${mode} revised`, `Quarantine a flaky test after two failures in a week (${mode}).`);
  const wrong = await source(`Build cache size ${mode}`, `The build cache holds 900 GB (${mode}).`);
  const confirmed = async (name, args) => {
    const pre = await client.callTool({ name, arguments: args });
    const sc = pre.structuredContent ?? {};
    const step = { previewError: !!pre.isError, token: !!sc.confirm_token, wrote: !!sc.batch,
      preview: (sc.preview?.pages ?? []).map((p) => `${p.action} ${p.path} ${p.status ?? ""}`.trim()) };
    const done = await client.callTool({ name, arguments: { ...args, confirm_token: sc.confirm_token } });
    step.isError = !!done.isError;
    step.batch = done.structuredContent?.batch ?? "";
    step.kind = done.structuredContent?.kind ?? "";
    const again = await client.callTool({ name, arguments: { ...args, confirm_token: sc.confirm_token } });
    step.replay = again.isError ? again.content?.[0]?.text ?? "" : "accepted";
    return step;
  };
  return {
    oldNote, newNote, wrong,
    supersede: await confirmed("supersede_page", { page: oldNote, by: newNote }),
    retract: await confirmed("retract_page", { page: wrong, reason: `it is 90 GB (${mode})` }),
    obsolete: await confirmed("obsolete_page", { page: newNote, reason: "the test runner retries now" }),
    archive: await confirmed("archive_page", { page: newNote }),
  };
}
