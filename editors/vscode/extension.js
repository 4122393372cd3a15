// dsh-skills for VS Code: starts `dsh-skills lsp` for Markdown files. The server decides which
// files are skill files (the ones the harness reads, any SKILL.md, and .md files with a skill's
// frontmatter) and leaves the others alone.
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("dshSkills");
  const command = config.get("path") || "dsh-skills";
  const args = ["lsp", ...config.get("args", [])];
  // TransportKind.stdio adds `--stdio`, which `dsh-skills lsp` accepts.
  const run = { command, args, transport: TransportKind.stdio };
  client = new LanguageClient(
    "dshSkills",
    "dsh-skills",
    { run, debug: run },
    {
      documentSelector: [{ scheme: "file", language: "markdown" }],
      synchronize: {
        fileEvents: vscode.workspace.createFileSystemWatcher("**/{*.md,.dsh-skills-lint.yaml}"),
      },
    },
  );
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("dshSkills")) {
        vscode.window.showInformationMessage("dsh-skills: reload the window to apply the new settings.");
      }
    }),
  );
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
