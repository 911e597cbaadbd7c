// The grammar on the shipped content: every rules and content file of the installed
// rulesets and expansions is tokenized as VS Code would (vscode-textmate, Oniguruma, the
// YAML grammar with ours injected), and the lines highlighted as effect text must be
// exactly the lines of effect text the language server finds (test/expected.json,
// written by test/effect_lines.py). Exit 1 naming every line that differs.
"use strict";
const fs = require("fs");
const path = require("path");
const textmate = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const here = path.resolve(__dirname, "..");
const grammars = {
  "source.yaml": require.resolve("tm-grammars/grammars/yaml.json"),
  "source.legacies-effect": path.join(here, "syntaxes/legacies-effect.tmLanguage.json"),
  "legacies.effect.injection": path.join(here, "syntaxes/legacies-injection.tmLanguage.json"),
};
const EMBEDDED = /^meta\.embedded\.(block|line)\.legacies-effect$/;

async function main() {
  const expectedFile = process.argv[2] || path.join(__dirname, "expected.json");
  const expected = JSON.parse(fs.readFileSync(expectedFile, "utf8"));
  const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")).buffer;
  await oniguruma.loadWASM(wasm);
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scope) => {
      const file = grammars[scope];
      return file ? textmate.parseRawGrammar(fs.readFileSync(file, "utf8"), file) : null;
    },
    getInjections: (scope) => (scope === "source.yaml" ? ["legacies.effect.injection"] : []),
  });
  const grammar = await registry.loadGrammar("source.yaml");
  let files = 0, lines = 0, missing = [], extra = [], statements = 0;
  for (const [file, wanted] of Object.entries(expected)) {
    const text = fs.readFileSync(file, "utf8").split(/\r?\n/);
    const want = new Set(wanted);
    let stack = textmate.INITIAL;
    files += 1;
    text.forEach((line, n) => {
      const result = grammar.tokenizeLine(line, stack);
      stack = result.ruleStack;
      let effect = false;
      for (const token of result.tokens) {
        const piece = line.slice(token.startIndex, token.endIndex);
        if (!piece.trim()) continue;
        if (token.scopes.some((s) => EMBEDDED.test(s))) {
          effect = true;
          if (token.scopes.includes("keyword.other.statement.legacies")) statements += 1;
        }
      }
      if (want.has(n)) lines += 1;
      if (want.has(n) && !effect) missing.push(`${file}:${n + 1}: ${line.trim()}`);
      if (!want.has(n) && effect && !/^\s*#/.test(line)) extra.push(`${file}:${n + 1}: ${line.trim()}`);
    });
  }
  console.log(`grammar: ${files} files, ${lines} lines of effect text, ${statements} statement words highlighted`);
  for (const [what, rows] of [["not highlighted as effect text", missing], ["highlighted but not effect text", extra]]) {
    if (rows.length) {
      console.log(`${rows.length} lines ${what}:`);
      rows.slice(0, 40).forEach((row) => console.log("  " + row));
    }
  }
  if (missing.length || extra.length || !lines || !statements) process.exit(1);
}

main().catch((err) => { console.error(err); process.exit(1); });
