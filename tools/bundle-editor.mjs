// Bundle CodeMirror for the scratchpad's editor into one minified ES module, from the
// packages package-lock.json pins (node_modules/, after `npm ci`):
//
//     npm run bundle-editor            (or: node tools/bundle-editor.mjs [out-dir])
//
// writes py/livelab/web/editor/codemirror.bundle.js and, beside it,
// codemirror.bundle.licenses.txt (the licence of every package in the bundle). Both are
// committed, so an author who only installs livelab from PyPI needs no Node; the test
// tests/unit/test_editor_bundle.py rebuilds them into a temporary folder and fails if they
// differ. The output depends on nothing but the inputs: no paths, dates or source maps.
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const ENTRY = "tools/codemirror-entry.mjs";
const BUNDLE = "codemirror.bundle.js";
const LICENCES = "codemirror.bundle.licenses.txt";
const outDir = process.argv[2] ?? join(ROOT, "py/livelab/web/editor");

// "node_modules/@codemirror/view/dist/index.js" -> "@codemirror/view"
function packageOf(input) {
  const parts = input.split("/");
  const at = parts.lastIndexOf("node_modules");
  if (at < 0) return null;
  return parts[at + 1].startsWith("@") ? parts.slice(at + 1, at + 3).join("/") : parts[at + 1];
}

const result = await build({
  absWorkingDir: ROOT,
  entryPoints: [ENTRY],
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2020",
  minify: true,
  charset: "utf8",
  legalComments: "none",
  metafile: true,
  write: false,
  logLevel: "warning",
});
const packages = [...new Set(Object.keys(result.metafile.inputs).map(packageOf))]
  .filter(Boolean)
  .sort();
const meta = packages.map((name) =>
  JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8")),
);
const banner =
  `// CodeMirror 6 for livelab's editor, bundled by esbuild from ${ENTRY} (npm run bundle-editor).\n` +
  `// ${meta.map((m) => `${m.name}@${m.version}`).join(" ")}\n` +
  `// Licences (${[...new Set(meta.map((m) => m.license))].join(", ")}): ${LICENCES}\n`;
const licences = meta
  .map((m) => {
    const text = readFileSync(join(ROOT, "node_modules", m.name, "LICENSE"), "utf8").trim();
    return `${m.name}@${m.version} (${m.license})\n\n${text}\n`;
  })
  .join(`\n${"-".repeat(72)}\n\n`);
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, BUNDLE), banner + result.outputFiles[0].text);
writeFileSync(join(outDir, LICENCES), licences);
console.log(`${BUNDLE}: ${packages.length} packages, ${result.outputFiles[0].contents.length} bytes`);
