import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";

// What a phone downloads on the first visit: the files index.html loads, raw, gzip and brotli.
// Usage: npm run build && npm run bench:bundle   (writes bench/BUNDLE.md)

const dist = path.resolve("dist/client");
const html = readFileSync(path.join(dist, "index.html"), "utf8");
const initial = new Set([...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+)"/g)].map((m) => m[1]!));

const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const rows = readdirSync(path.join(dist, "assets"))
  .filter((f) => /\.(js|css)$/.test(f))
  .map((f) => {
    const bytes = readFileSync(path.join(dist, "assets", f));
    return {
      file: f,
      initial: initial.has(`assets/${f}`),
      raw: statSync(path.join(dist, "assets", f)).size,
      gzip: gzipSync(bytes, { level: 9 }).length,
      brotli: brotliCompressSync(bytes).length,
    };
  })
  .sort((a, b) => b.gzip - a.gzip);

const sum = (key: "raw" | "gzip" | "brotli") => rows.filter((r) => r.initial).reduce((s, r) => s + r[key], 0);
const lines = [
  "# Bundle size",
  "",
  `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC from \`dist/client\` (\`npm run build && npm run bench:bundle\`).`,
  "Fonts (self-hosted Inter, one woff2 per script, fetched only when used) are not counted.",
  "",
  `**First load (JS + CSS that index.html references): ${kb(sum("raw"))} raw, ${kb(sum("gzip"))} gzip, ${kb(sum("brotli"))} brotli.**`,
  "",
  "| file | first load | raw | gzip | brotli |",
  "|---|---|---|---|---|",
  ...rows.map((r) => `| ${r.file.replace(/-[\w-]{8}\./, ".")} | ${r.initial ? "yes" : "on demand"} | ${kb(r.raw)} | ${kb(r.gzip)} | ${kb(r.brotli)} |`),
  "",
];
writeFileSync("bench/BUNDLE.md", lines.join("\n"));
console.log(lines.join("\n"));
