"""Issue 33, section 4: the language server loses nothing. A frame over the size limit
was refused and its body then read as headers (the next request lost; a request hidden
inside the refused body answered); a bad edit range left tracebacks on standard error;
`exit` must end the process whatever is running. Every wait has a timeout (the Editor's):
a server that hangs fails the test, and no assertion depends on how fast it answers."""

from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from legacies.cli.lsp.frames import MAX_FRAME

from .test_lsp import TIMEOUT, Editor, _copy_ruleset, _open, _raw, editor  # noqa: F401 - the fixture

pytest.importorskip("pygls")


def _frame(message: dict[str, Any]) -> bytes:
    body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def test_an_oversize_frame_is_skipped_exactly_and_the_next_request_answered(editor: Editor, tmp_path: Path) -> None:
    uri = (tmp_path / "content" / "legacies" / "huge.yaml").as_uri()
    head = json.dumps({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "yaml", "version": 1, "text": ""}}}).encode()[:-4]  # the text left open
    hidden = b"\n" + _frame({"id": 99, "method": "shutdown"}) + b"\n"  # a request inside the refused body
    size = MAX_FRAME + 1
    body = head + hidden + b"x" * (size - len(head) - len(hidden) - 4) + b'"}}}'
    assert len(body) == size
    _raw(editor, b"Content-Length: %d\r\n\r\n" % size + body)  # then the next request at once
    assert editor.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                 "position": {"line": 0, "character": 0}}) is None
    refused = editor._next(lambda m: m.get("id", 0) is None and "error" in m, "the refusal")
    assert "more than this server reads" in refused["error"]["message"]
    said = editor.diagnostics(uri)  # the document it would have opened says why it is not checked
    assert said and said[0]["code"] == "F005" and "not checked" in said[0]["message"]
    assert editor.request("shutdown") is None
    assert not [m for m in editor.held if m.get("id") == 99]  # the hidden request was never answered
    editor.notify("exit")
    assert editor.proc.wait(timeout=TIMEOUT) == 0


def test_a_huge_length_is_refused_at_once_and_never_fills_memory(editor: Editor) -> None:
    _raw(editor, b"Content-Length: 99999999999\r\n\r\n" + b"{" * 2_000_000)
    refused = editor._next(lambda m: m.get("id", 0) is None and "error" in m, "the refusal")
    assert refused["error"]["code"] == -32700
    status = Path(f"/proc/{editor.proc.pid}/status")
    if status.exists():
        rss = int(re.search(r"VmRSS:\s+(\d+)", status.read_text()).group(1))  # type: ignore[union-attr]
        assert rss < 600_000, rss  # kB: the 2 MB read were dropped, never held
    assert editor.proc.poll() is None


def test_a_bad_edit_range_is_an_error_response_and_no_traceback(editor: Editor, tmp_path: Path) -> None:
    uri = _open(editor, tmp_path / "content" / "legacies" / "x.yaml", "items: []\n")
    editor.diagnostics(uri)
    for number, place in enumerate([((500, 3), (900, 0)), ((0, 5), (0, 1)), ((0, 99), (0, -4))], start=2):
        (sl, sc), (el, ec) = place
        editor.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": number}, "contentChanges": [
            {"range": {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}}, "text": "x"}]})
        refused = editor._next(lambda m: m.get("id", 0) is None and "error" in m, "the refusal of an edit")
        assert refused["error"]["code"] == -32602 and "not applied" in refused["error"]["message"]
    assert editor.request("shutdown") is None
    editor.notify("exit")
    assert editor.proc.wait(timeout=TIMEOUT) == 0
    assert editor.proc.stderr is not None
    log = editor.proc.stderr.read().decode("utf-8", "replace")
    assert "Traceback" not in log and "  File " not in log, log[-2000:]


def test_a_document_over_the_file_limit_is_a_diagnostic(editor: Editor, tmp_path: Path) -> None:
    uri = _open(editor, tmp_path / "content" / "legacies" / "big.yaml", "items:\n" + "# padding\n" * 60_000)
    said = editor.diagnostics(uri)
    assert [d["code"] for d in said] == ["F005"]


@pytest.mark.parametrize("shutdown, code", [(True, 0), (False, 1)])
def test_exit_always_exits_even_while_a_check_runs(tmp_path: Path, shutdown: bool, code: int) -> None:
    _copy_ruleset(tmp_path)
    ed = Editor(tmp_path)
    try:
        ed.request("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}})
        ed.notify("initialized")
        cards = next((tmp_path / "content" / "legacies").glob("*.yaml"))
        _open(ed, cards, cards.read_text(encoding="utf-8"))  # a whole ruleset to check: it is running
        if shutdown:
            ed.send({"id": 50, "method": "shutdown"})
        ed.notify("exit")  # standard input stays open: nothing but `exit` ends it
        assert ed.proc.wait(timeout=TIMEOUT) == code
    finally:
        ed.close()


def test_exit_ends_a_server_over_tcp(tmp_path: Path) -> None:
    import socket
    import sys

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-c", "from legacies.cli.main import main; main()", "lsp", "--tcp",
                             f"127.0.0.1:{port}"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp_path)
    try:
        deadline = time.monotonic() + TIMEOUT
        while True:
            try:
                client = socket.create_connection(("127.0.0.1", port), timeout=5)
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None, "the server did not listen"
                time.sleep(0.2)
        with client:
            client.sendall(_frame({"id": 1, "method": "initialize", "params": {"processId": None, "capabilities": {}}})
                           + _frame({"id": 2, "method": "shutdown"}) + _frame({"method": "exit"}))
            assert proc.wait(timeout=TIMEOUT) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=TIMEOUT)


def test_a_file_of_an_expansion_past_the_file_bound_is_answered_and_said_unchecked(tmp_path: Path) -> None:
    """A 10,000-file expansion kept the server checking for a minute: the load stops at
    MAX_FILES (pipeline/size_bounds.py), and the document opened past it says so."""
    import shutil

    from legacies.pipeline.size_bounds import MAX_FILES

    folder = tmp_path / "big"
    shutil.copytree(Path(__file__).resolve().parents[2] / "expansions" / "salons", folder,
                    ignore=shutil.ignore_patterns("__*"))
    extra = folder / "content" / "legacies" / "extra"
    extra.mkdir()
    for i in range(MAX_FILES + 50):
        (extra / f"f{i:05}.yaml").write_text("format: 2\nruleset: legacies\nitems: []\n", encoding="utf-8")
    ed = Editor(folder)
    try:
        ed.request("initialize", {"processId": None, "rootUri": folder.as_uri(), "capabilities": {}})
        ed.notify("initialized")
        last = extra / f"f{MAX_FILES + 40:05}.yaml"
        uri = _open(ed, last, last.read_text(encoding="utf-8"))
        said = ed.diagnostics(uri)
        assert [d["code"] for d in said] == ["F012"] and "not checked" in said[0]["message"]
        assert ed.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                 "position": {"line": 0, "character": 0}}) is None
        assert ed.request("shutdown") is None
    finally:
        ed.close()
