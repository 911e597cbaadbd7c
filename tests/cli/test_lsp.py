"""`legacies lsp` driven as an editor drives it: a subprocess spoken to in JSON-RPC over
its standard input and output (Content-Length framing), a copy of the Legacies ruleset
in a temporary folder, a card file opened with a mistake in an effect, then fixed,
hovered, followed to a definition and completed. Every wait has a timeout: a server
that hangs or dies fails the test, it never blocks it."""

from __future__ import annotations

import json
import queue
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from legacies.pipeline.validate import validate

pytest.importorskip("pygls")

COMMAND = [sys.executable, "-c", "from legacies.cli.main import main; main()", "lsp"]
TIMEOUT = 60.0  # seconds for any one answer (a check takes about one on a busy machine)


class Editor:
    """The editor's end of the protocol."""

    def __init__(self, cwd: Path) -> None:
        self.proc = subprocess.Popen(COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=cwd)
        self.inbox: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.held: list[dict[str, Any]] = []  # notifications read while waiting for something else
        self.last_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            headers: dict[str, str] = {}
            while True:
                line = out.readline()
                if not line:
                    self.inbox.put(None)
                    return
                if not line.strip():
                    break
                key, _, value = line.decode("ascii").partition(":")
                headers[key.strip().lower()] = value.strip()
            self.inbox.put(json.loads(out.read(int(headers["content-length"]))))

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        self.send({"method": method, "params": params or {}})

    def request(self, method: str, params: dict[str, Any] | None = None) -> Any:
        self.last_id += 1
        wanted = self.last_id
        self.send({"id": wanted, "method": method, "params": params or {}})
        answer = self._next(lambda m: m.get("id") == wanted and "method" not in m, f"the answer to {method}")
        assert "error" not in answer, answer["error"]
        return answer.get("result")

    def diagnostics(self, uri: str) -> list[dict[str, Any]]:
        """The next diagnostics published for `uri`."""
        message = self._next(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                             and m["params"]["uri"] == uri, f"diagnostics for {uri}")
        return list(message["params"]["diagnostics"])

    def _next(self, wanted: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
        for i, message in enumerate(self.held):
            if wanted(message):
                return self.held.pop(i)
        deadline = time.monotonic() + TIMEOUT
        while True:
            try:
                message = self.inbox.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no {what} within {TIMEOUT:.0f} s") from None
            if message is None:
                raise AssertionError(f"the server stopped while waiting for {what}: {self.stderr()}")
            if wanted(message):
                return message
            if "id" in message and "method" in message:  # a request from the server: answered, ignored
                self.send({"id": message["id"], "result": None})
            else:
                self.held.append(message)

    def stderr(self) -> str:
        if self.proc.poll() is None:
            self.proc.kill()
        assert self.proc.stderr is not None
        return self.proc.stderr.read().decode("utf-8", errors="replace")[-3000:]

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=TIMEOUT)


@pytest.fixture
def editor(tmp_path: Path) -> Any:
    ed = Editor(tmp_path)
    ed.request("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}})
    ed.notify("initialized")
    yield ed
    ed.close()


def _copy_ruleset(root: Path, name: str = "legacies") -> None:
    for package, sub in (("legacies.rules", "rules"), ("legacies.content", "content")):
        shutil.copytree(Path(str(resources.files(package).joinpath(name))), root / sub / name,
                        ignore=shutil.ignore_patterns("__pycache__"))


def _open(editor: Editor, path: Path, text: str) -> str:
    uri = path.as_uri()
    editor.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1,
                                                            "text": text}})
    return uri


def _change(editor: Editor, uri: str, version: int, text: str) -> None:
    editor.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                             "contentChanges": [{"text": text}]})


def _said(found: list[dict[str, Any]]) -> list[tuple[str, str, int, int]]:
    return [(d["code"], d["message"].split("\nhint: ")[0], d["range"]["start"]["line"],
             d["range"]["start"]["character"]) for d in found]


def _validated(root: Path, text: str) -> list[tuple[str, str, int, int]]:
    """`legacies validate` of the card file holding `text`, in a copy of the ruleset at `root`."""
    saved = root / "saved"
    shutil.rmtree(saved, ignore_errors=True)
    for sub in ("rules", "content"):
        shutil.copytree(root / sub, saved / sub)
    (saved / "content" / "legacies" / "cards_i.yaml").write_text(text, encoding="utf-8")
    result = validate([str(saved / "content" / "legacies" / "cards_i.yaml")])
    return [(d.code, d.message, d.line - 1, d.column - 1) for d in result.diagnostics if d.file.endswith("cards_i.yaml")]


def _at(uri: str, line: int, character: int) -> dict[str, Any]:
    return {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}


def test_an_editor_sees_diagnostics_hover_definition_and_completion(editor: Editor, tmp_path: Path) -> None:
    _copy_ruleset(tmp_path)
    cards = tmp_path / "content" / "legacies" / "cards_i.yaml"
    good = cards.read_text(encoding="utf-8")
    mistake = "choose an industri as X"
    broken = good.replace("choose an industry as X", mistake, 1)
    lines = broken.split("\n")
    bad_line = next(n for n, line in enumerate(lines) if mistake in line)
    bad_column = lines[bad_line].index("industri")

    uri = _open(editor, cards, broken)  # the file on disk stays right: the editor's text is what counts
    found = editor.diagnostics(uri)
    wrong = [d for d in found if d["code"] == "E201"]
    assert [d["message"] for d in wrong] == ["unknown name `industri`\nhint: did you mean `industry`?"]
    assert wrong[0]["range"] == {"start": {"line": bad_line, "character": bad_column},
                                 "end": {"line": bad_line, "character": bad_column + len("industri")}}
    assert wrong[0]["severity"] == 1 and wrong[0]["source"] == "legacies"
    # exactly what `legacies validate` says of that text saved in that file
    assert _said(found) == _validated(tmp_path, broken)

    _change(editor, uri, 2, good)
    fixed = editor.diagnostics(uri)
    assert not [d for d in fixed if d["code"] == "E201"]  # cleared
    assert _said(fixed) == _validated(tmp_path, good)  # (none, unless the shipped file has warnings)

    id_line = next(n for n, line in enumerate(good.split("\n")) if line.strip() == "- id: C1003")
    shown = editor.request("textDocument/hover", _at(uri, id_line, good.split("\n")[id_line].index("C1003") + 2))
    assert "Spoils of War" in shown["contents"]["value"]
    assert "Pay 2 gold. Choose an industry." in shown["contents"]["value"]
    effect_line = next(n for n, line in enumerate(good.split("\n")) if line.strip() == "choose an industry as X")
    shown = editor.request("textDocument/hover", _at(uri, effect_line, 9))  # on `choose`, in the effect
    assert "opportunity: Pay 2 gold." in shown["contents"]["value"]

    line = next(n for n, text in enumerate(good.split("\n")) if "{politician: 4" in text)
    place = editor.request("textDocument/definition",
                           _at(uri, line, good.split("\n")[line].index("politician") + 1))
    characters = (tmp_path / "content" / "legacies" / "characters.yaml")
    declared = next(n for n, text in enumerate(characters.read_text(encoding="utf-8").split("\n"))
                    if text.strip() == "- id: politician")
    assert place["uri"] == characters.as_uri()
    assert place["range"]["start"]["line"] == declared

    offered = editor.request("textDocument/completion", _at(uri, effect_line, 8))  # a statement begins there
    labels = {item["label"] for item in offered["items"]}
    assert {"gain", "choose", "put_in_play"} <= labels and "C1003" not in labels
    after = good.split("\n")[effect_line].index("an industry")  # `choose |`: what one chooses from
    offered = editor.request("textDocument/completion", _at(uri, effect_line, after + 3))
    labels = {item["label"] for item in offered["items"]}
    assert {"industry", "industries", "characters"} <= labels and "gain" not in labels

    rules = tmp_path / "rules" / "legacies" / "actions.yaml"  # a rules file: a procedure's text
    text = rules.read_text(encoding="utf-8").split("\n")
    start = text.index("procedures:")
    name = next(line.strip(" :") for line in text[start + 1:] if line.startswith("  ") and line.endswith(":")
                and not line.startswith("   "))
    body = next(n for n in range(start, len(text)) if text[n].strip() == "do: |") + 1
    rules_uri = _open(editor, rules, "\n".join(text))
    editor.diagnostics(rules_uri)
    shown = editor.request("textDocument/hover", _at(rules_uri, body, len(text[body]) - 1))
    assert f"**{name}** (procedure): " in shown["contents"]["value"]

    editor.request("shutdown")
    editor.notify("exit")
    assert editor.proc.wait(timeout=TIMEOUT) == 0


def test_a_file_that_does_not_parse_is_a_diagnostic_and_the_server_goes_on(editor: Editor, tmp_path: Path) -> None:
    _copy_ruleset(tmp_path)
    cards = tmp_path / "content" / "legacies" / "cards_i.yaml"
    good = cards.read_text(encoding="utf-8")
    uri = _open(editor, cards, good.replace("resources: [iron]", "resources: [iron", 1))
    found = editor.diagnostics(uri)
    assert "Y001" in {d["code"] for d in found}
    id_line = good.split("\n").index("  - id: C1003")  # card text from the file as saved, said to be so
    shown = editor.request("textDocument/hover", _at(uri, id_line, 10))["contents"]["value"]
    assert "Spoils of War" in shown and "Pay 2 gold." in shown and "last checked without errors" in shown
    _change(editor, uri, 2, "items: [\u0000")  # not even YAML characters
    assert editor.diagnostics(uri)
    # still answering: hover over a line of the broken text, then the file fixed
    editor.request("textDocument/hover", _at(uri, 0, 2))
    _change(editor, uri, 3, good)
    assert not [d for d in editor.diagnostics(uri) if d["severity"] == 1]
    other = tmp_path / "notes.yaml"  # a YAML file of no ruleset: left alone
    assert editor.diagnostics(_open(editor, other, "not: [a, ruleset")) == []


def test_without_pygls_the_command_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from legacies.cli.main import app
    from typer.testing import CliRunner

    for loaded in [m for m in sys.modules if m.startswith("pygls.")]:
        monkeypatch.delitem(sys.modules, loaded)
    monkeypatch.setitem(sys.modules, "pygls", None)  # `import pygls` fails as when it is not installed
    monkeypatch.delitem(sys.modules, "legacies.cli.lsp.server", raising=False)
    result = CliRunner().invoke(app, ["lsp"])
    assert result.exit_code == 2
    assert result.output.strip() == "error: the language server needs pygls: pip install 'legacies[lsp]'"


def test_a_tcp_address_is_host_and_port() -> None:
    from typer.testing import CliRunner

    from legacies.cli.main import app

    result = CliRunner().invoke(app, ["lsp", "--tcp", "2087"])
    assert result.exit_code == 2
    assert "--tcp takes HOST:PORT" in result.output


# --------------------------------------------------------------------------- a hostile client (issue 22, part 6)
def _raw(editor: Editor, data: bytes) -> None:
    assert editor.proc.stdin is not None
    editor.proc.stdin.write(data)
    editor.proc.stdin.flush()


def _parse_error(editor: Editor) -> dict[str, Any]:
    message = editor._next(lambda m: m.get("id", 0) is None and "error" in m, "a parse error")
    assert message["error"]["code"] in (-32700, -32600), message
    return message


@pytest.mark.parametrize("frame, words", [
    (b"Content-Length: -5\r\n\r\n{\"x\": 1}", "whole number"),
    (b"Content-Type: application/json\r\n\r\n{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"shutdown\"}",
     "without a Content-Length"),
    (b"Content-Length: 12\r\n\r\nnot json at!", "not JSON"),
    (b"X" * 200_000 + b"\r\n\r\n", "without a Content-Length"),
], ids=["negative length", "no length", "not json", "200 kB of header"])  # a 200 kB id would
# be the test's name in PYTEST_CURRENT_TEST, past what one variable may hold when the server is started
def test_a_malformed_frame_gets_a_parse_error_and_the_server_goes_on(editor: Editor, frame: bytes,
                                                                     words: str) -> None:
    _raw(editor, frame)  # the next frame follows at once: the server must find it
    assert editor.request("shutdown") is None  # still serving, and in step with the client
    assert words in _parse_error(editor)["error"]["message"]


# a huge length: its body is skipped exactly, so no next frame follows at once here
# (tests/cli/test_lsp_frames.py, issue 33)


def test_a_request_whose_params_do_not_fit_is_answered_by_its_id(editor: Editor) -> None:
    """A request pygls cannot read (hover with params that are a list) was answered with
    id null: its client waited for an answer to id 41 forever."""
    body = json.dumps({"jsonrpc": "2.0", "id": 41, "method": "textDocument/hover", "params": [1]}).encode()
    _raw(editor, b"Content-Length: %d\r\n\r\n" % len(body) + body)
    answer = editor._next(lambda m: m.get("id") == 41, "the answer to request 41")
    assert answer["error"]["code"] == -32602 and "params" in answer["error"]["message"]
    assert editor.request("shutdown") is None  # still serving
