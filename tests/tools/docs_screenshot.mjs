// The docs check in a browser (CONTRIBUTING.md): opens a page of the built site (make docs) in headless
// Chromium, serves mkdocs-material's Mermaid (it loads mermaid@11 from unpkg.com) from the npm package
// instead, so that the check needs no network, and writes a screenshot. Prints how many diagrams were
// drawn and whether any shows Mermaid's syntax error; exits 1 unless all of them were drawn.
//   node docs_screenshot.mjs http://127.0.0.1:8000/seeing/ seeing.png
// Copy it into a folder with playwright-core and mermaid@11 installed (npm install playwright-core mermaid@11)
// and run it there: node resolves its imports beside the script.
import { chromium } from "playwright-core";
import { createRequire } from "node:module";

const [url, out] = process.argv.slice(2);
const mermaidFile = createRequire(import.meta.url).resolve("mermaid/dist/mermaid.min.js");
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
await page.route("https://unpkg.com/mermaid@11/dist/mermaid.min.js", (route) => route.fulfill({ path: mermaidFile }));
await page.route((u) => !u.toString().startsWith(url.split("/").slice(0, 3).join("/")) && !u.toString().startsWith("https://unpkg.com/mermaid"), (route) => route.abort());
await page.goto(url, { waitUntil: "networkidle" });
await page.waitForTimeout(1500);
// mkdocs-material draws each diagram into a closed shadow root of a div.mermaid that replaces the page's
// pre.mermaid: a block still a <pre>, or a host with no height, was not drawn.
const boxes = await page.$$eval("div.mermaid, pre.mermaid", (nodes) =>
  nodes.map((node) => ({ tag: node.tagName, height: node.getBoundingClientRect().height })));
const blocks = boxes.length;
const drawn = boxes.filter((box) => box.tag === "DIV" && box.height > 40).length;
const errors = await page.locator("text=Syntax error").count();
await page.screenshot({ path: out, fullPage: true });
const hosts = await page.$$("div.mermaid");
for (const [k, host] of hosts.entries()) await host.screenshot({ path: out.replace(/\.png$/, `-${k}.png`) });
console.log(JSON.stringify({ blocks, drawn, errors }));
await browser.close();
process.exit(blocks > 0 && drawn === blocks && errors === 0 ? 0 : 1);
