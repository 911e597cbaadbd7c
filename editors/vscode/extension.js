// The Legacies extension: starts `legacies lsp` (the language server of the legacies
// engine) for YAML files and restarts it on demand. Which files it answers for is the
// server's business: files under rules/<ruleset>/ or content/<ruleset>/, or naming
// their `ruleset:`; any other YAML file it leaves alone.
"use strict";
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function start(context) {
  const config = vscode.workspace.getConfiguration("legacies.server");
  const command = config.get("command", "legacies");
  const args = config.get("args", ["lsp"]);
  const server = { command, args, transport: TransportKind.stdio };
  client = new LanguageClient("legacies", "Legacies", { run: server, debug: server }, {
    documentSelector: [{ scheme: "file", language: "yaml" }, { scheme: "untitled", language: "yaml" }],
    outputChannelName: "Legacies",
  });
  return client.start().catch((err) => {
    vscode.window.showErrorMessage(
      `Legacies: cannot start \`${command} ${args.join(" ")}\` (${err.message}). ` +
      "Install it with `pip install 'legacies[lsp]'`, or set legacies.server.command.");
  });
}

function activate(context) {
  context.subscriptions.push(vscode.commands.registerCommand("legacies.restartServer", async () => {
    if (client) {
      await client.stop();
    }
    await start(context);
  }));
  return start(context);
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
