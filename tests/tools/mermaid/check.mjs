// The test suite's Mermaid parser: each line of stdin is a JSON string (a diagram's text); each
// line of stdout is a JSON object saying what mermaid's own parser read from it: the diagram's
// type, and its nodes and edges (flowchart), tasks (gantt) or actors and messages (sequence), or
// the parser's error. Texts are as the parser keeps them: an entity code (#NNN;) as mermaid's placeholder
// for it, ﬂ°°NNN¶ß, which its renderer turns into the character.
import { createInterface } from "node:readline";
import { JSDOM } from "jsdom";

const dom = new JSDOM("<!DOCTYPE html><body></body>");
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const { default: mermaid } = await import("mermaid");
// Mermaid's defaults stop at 50,000 characters and 500 edges; a page that draws big plans raises them.
mermaid.initialize({ startOnLoad: false, maxTextSize: 10_000_000, maxEdges: 1_000_000 });

const decoded = (text) => String(text ?? "");

function structure(db) {
  if (db.getVertices) {
    return {
      nodes: [...db.getVertices().values()].map((v) => ({ id: v.id, text: decoded(v.text), classes: v.classes })),
      edges: db.getEdges().map((e) => ({ start: e.start, end: e.end, text: decoded(e.text) })),
    };
  }
  if (db.getTasks) {
    return {
      title: decoded(db.getDiagramTitle()),
      tasks: db.getTasks().map((t) => ({
        section: decoded(t.section), task: decoded(t.task), id: t.id,
        start: +t.startTime, end: +t.endTime, done: !!t.done, active: !!t.active, crit: !!t.crit,
      })),
    };
  }
  if (db.getMessages) {
    return {
      actors: [...db.getActors().values()].map((a) => ({ name: a.name, description: decoded(a.description) })),
      messages: db.getMessages().map((m) => ({ from: m.from, to: m.to, message: decoded(m.message) })),
    };
  }
  return {};
}

for await (const line of createInterface({ input: process.stdin })) {
  let answer;
  try {
    const diagram = await mermaid.mermaidAPI.getDiagramFromText(JSON.parse(line));
    answer = { ok: true, type: diagram.type, ...structure(diagram.db) };
  } catch (error) {
    answer = { ok: false, error: String(error?.message ?? error).split("\n").slice(0, 3).join(" ") };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
