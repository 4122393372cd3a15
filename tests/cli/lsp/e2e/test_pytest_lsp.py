"""dsh-skills lsp driven by pytest-lsp, with the capabilities VS Code and Neovim announce.

Run by tests/cli/lsp/e2e.rs (cargo test), which makes the skill tree and sets DSH_SKILLS_BIN,
DSH_LSP_ROOT (the project) and HOME.
"""

import os
import pathlib

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

ROOT = pathlib.Path(os.environ["DSH_LSP_ROOT"])
SKILL = ROOT / ".dsh" / "skills" / "my-skill" / "SKILL.md"


@pytest_lsp.fixture(
    params=["visual-studio-code", "neovim"],
    config=ClientServerConfig(server_command=[os.environ["DSH_SKILLS_BIN"], "lsp"]),
)
async def client(request, lsp_client: LanguageClient):
    # VS Code registers file watchers when the server asks (right after `initialized`).
    registrations = []

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams):
        registrations.extend(r.method for r in params.registrations)

    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities(request.param),
            root_uri=ROOT.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=ROOT.as_uri(), name="p")],
        )
    )
    yield
    await lsp_client.shutdown_session()


async def test_diagnostics_hover_and_a_fix(client: LanguageClient):
    uri = SKILL.as_uri()
    text = SKILL.read_text()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="markdown", version=1, text=text)
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    codes = sorted(d.code for d in client.diagnostics[uri])
    assert codes == ["broken-reference", "legacy-invocation-key"], codes
    legacy = next(d for d in client.diagnostics[uri] if d.code == "legacy-invocation-key")
    assert legacy.range.start == types.Position(line=3, character=0)

    # Skipped by the harness as it is: the hover says so instead of a catalog line.
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=2, character=2),
        )
    )
    assert "The harness skips this file" in hover.contents.value

    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=legacy.range,
            context=types.CodeActionContext(diagnostics=[legacy]),
        )
    )
    fix = next(a for a in actions if a.title.startswith("Fix: rename"))
    (edit,) = fix.edit.changes[uri]
    assert edit.new_text == "user-invocable"

    # The edit, applied as an incremental change: the finding goes.
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangePartial(range=edit.range, text=edit.new_text)],
        )
    )
    while True:
        await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        codes = [d.code for d in client.diagnostics[uri]]
        if "legacy-invocation-key" not in codes:
            break
    assert codes == ["broken-reference"], codes
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=2, character=2),
        )
    )
    assert "- `my-skill`: Does things." in hover.contents.value

