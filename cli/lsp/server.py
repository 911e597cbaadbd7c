"""`legacies lsp`: the language server for content and rules files (pygls).

This module owns the protocol: which requests the server answers and how a
Diagnostic, a name or a place becomes what the editor shows. What is checked lives in
cli/check.py, what is answered in cli/query.py; pygls is imported here only,
so that no other command pays for it.

- A document that is opened or changed is checked with its ruleset, as `legacies
  validate FILE` checks it, from the text the editor holds (a change is checked once the
  typing pauses for DEBOUNCE seconds; an older check's result is never published over a
  newer one's). Its diagnostics, and those of the other open documents of that ruleset,
  are published; an empty list clears them.
- hover: an item id shows the item's card text; a declared name what it is; a line of
  an effect the card text of that effect.
- definition: an item id goes to its `id:`, a counter, zone, kind, procedure,
  definition or action to the key that declares it.
- completion: the names that fit where the cursor stands (cli/complete.py).
- code actions: a quick fix for each diagnostic whose hint names an edit (cli/fixes.py).
- references and rename: an item id, kind, counter or quantity in every file of the
  ruleset and its expansions and the scenario tests beside them (cli/lsp/renaming.py).
Nothing a file holds stops the server: a check that fails is said as a diagnostic.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path
from pygls.workspace import TextDocument
from pygls.workspace.position_codec import ServerTextPosition, ServerTextRange

from legacies.dsl.diagnostics import WARNING, Diagnostic
from legacies.dsl.errors import LegaciesError
from legacies.dsl.parse_cache import parse_cache
from legacies.pipeline.validate import UsageError

from . import complete, fixes, query, renaming
from .check import Check, belongs_to_ruleset, check_document
from .frames import serve_io, serve_tcp

DEBOUNCE = 0.15
"""Seconds a change waits for the next one before it is checked (a check of the
Legacies ruleset takes about half a second: not one per keystroke)."""

log = logging.getLogger("legacies.lsp")

_KINDS = {"item": lsp.CompletionItemKind.Constant, "counter": lsp.CompletionItemKind.Variable,
          "value": lsp.CompletionItemKind.Variable, "zone": lsp.CompletionItemKind.Module,
          "kind": lsp.CompletionItemKind.Class, "event": lsp.CompletionItemKind.Event,
          "quantity": lsp.CompletionItemKind.Property, "option": lsp.CompletionItemKind.Property,
          "action": lsp.CompletionItemKind.Method, "definition": lsp.CompletionItemKind.Function,
          "procedure": lsp.CompletionItemKind.Function, "counter set": lsp.CompletionItemKind.Struct,
          "symbol": lsp.CompletionItemKind.EnumMember, "keyword": lsp.CompletionItemKind.Keyword,
          "builtin": lsp.CompletionItemKind.Function}


class ContentServer(LanguageServer):
    """The server and what it remembers between requests."""

    def __init__(self) -> None:
        super().__init__("legacies", _version(), text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.checks: dict[str, Check] = {}  # uri -> its latest check
        self.good: dict[str, Check] = {}  # ruleset key -> its latest check with no error
        self.tickets: dict[str, int] = {}  # uri -> number of its latest change
        self.uris: dict[Path, str] = {}  # an open document's path -> its uri
        # one check at a time, off the protocol's loop: a check pauses the garbage
        # collector process-wide, and requests are answered while it runs
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="legacies-check")


def make_server() -> ContentServer:
    """A server with every feature registered."""
    server = ContentServer()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: ContentServer, params: lsp.DidOpenTextDocumentParams) -> None:
        await _check_later(ls, params.text_document.uri, 0.0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: ContentServer, params: lsp.DidChangeTextDocumentParams) -> None:
        await _check_later(ls, params.text_document.uri, DEBOUNCE)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: ContentServer, params: lsp.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.tickets[uri] = ls.tickets.get(uri, 0) + 1  # a check still running is not published
        ls.checks.pop(uri, None)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(lsp.SHUTDOWN)
    async def shutdown(ls: ContentServer, params: None) -> None:
        # the parse cache's connection belongs to the checking thread: written from there
        await asyncio.get_running_loop().run_in_executor(ls.pool, lambda: parse_cache().flush())

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    async def hover(ls: ContentServer, params: lsp.HoverParams) -> lsp.Hover | None:
        found = await _at(ls, params.text_document.uri, params.position)
        if found is None:
            return None
        doc, path, checks, (line, column) = found
        text = query.hover(checks, path, doc.source, line, column)
        if text is None:
            return None
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text))

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    async def definition(ls: ContentServer, params: lsp.DefinitionParams) -> lsp.Location | None:
        found = await _at(ls, params.text_document.uri, params.position)
        if found is None:
            return None
        doc, _, checks, (line, column) = found
        place = query.definition(checks, doc.source, line, column)
        if place is None:
            return None
        start = _client_position(ls, place.path, place.line, place.column)
        return lsp.Location(uri=from_fs_path(str(place.path)) or str(place.path), range=lsp.Range(start, start))

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION)
    async def completion(ls: ContentServer, params: lsp.CompletionParams) -> lsp.CompletionList | None:
        found = await _at(ls, params.text_document.uri, params.position)
        if found is None:
            return None
        doc, path, checks, (line, column) = found
        items = [lsp.CompletionItem(label=n.name, kind=_KINDS.get(n.what), detail=n.detail)
                 for n in complete.completions(checks, path, doc.source, line, column)]
        return lsp.CompletionList(is_incomplete=False, items=items)

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
    async def code_action(ls: ContentServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction] | None:
        found = await _at(ls, params.text_document.uri, params.range.start)
        if found is None:
            return None
        doc, path, checks, _ = found
        check = checks[0]
        label = next((lb for lb, p in check.labels.items() if p == path), None)
        lines = doc.source.split("\n")
        wanted = params.range
        params_of = fixes.declared_params([f for c in checks for f in c.files],
                                               [c.build.vocab for c in checks if c.build and c.build.vocab])
        actions = []
        for d in check.diagnostics:
            if d.file != label:
                continue
            shown = _diagnostic(doc, d)
            if not _overlaps(shown.range, wanted):
                continue
            for fix in fixes.fixes(d, lines, params_of):
                edits = [lsp.TextEdit(range=_client_range(doc, e.line, e.column, e.end_line, e.end_column),
                                      new_text=e.text) for e in fix.edits]
                actions.append(lsp.CodeAction(title=fix.title, kind=lsp.CodeActionKind.QuickFix, diagnostics=[shown],
                                              is_preferred=fix.preferred or None,
                                              edit=lsp.WorkspaceEdit(changes={params.text_document.uri: edits})))
        return actions

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    async def references(ls: ContentServer, params: lsp.ReferenceParams) -> list[lsp.Location] | None:
        found = await _name_at(ls, params.text_document.uri, params.position)
        if found is None:
            return None
        _, checks, _, word = found
        texts = _open_texts(ls)
        hits = await asyncio.get_running_loop().run_in_executor(
            ls.pool, renaming.references, checks, word[0], texts)
        return [lsp.Location(uri=from_fs_path(str(s.path)) or str(s.path), range=_hit_range(ls, s)) for s in hits]

    @server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
    async def prepare_rename(ls: ContentServer, params: lsp.PrepareRenameParams) -> lsp.Range | None:
        found = await _name_at(ls, params.text_document.uri, params.position)
        if found is None or renaming.renamable(found[1], found[3][0]) is None:
            return None
        doc, _, line, word = found
        return _client_range(doc, line, word[1], line, word[2])

    @server.feature(lsp.TEXT_DOCUMENT_RENAME, lsp.RenameOptions(prepare_provider=True))
    async def rename(ls: ContentServer, params: lsp.RenameParams) -> lsp.WorkspaceEdit | None:
        found = await _name_at(ls, params.text_document.uri, params.position)
        if found is None:
            return None
        _, checks, _, word = found
        texts = _open_texts(ls)
        try:
            by_file = await asyncio.get_running_loop().run_in_executor(
                ls.pool, renaming.rename, checks, word[0], params.new_name, texts)
        except renaming.RenameRefused as err:
            raise JsonRpcException(str(err), code=-32803) from None  # RequestFailed
        changes = {from_fs_path(str(path)) or str(path): [lsp.TextEdit(range=_hit_range(ls, s),
                                                                       new_text=s.text or params.new_name) for s in hits]
                   for path, hits in by_file.items()}
        return lsp.WorkspaceEdit(changes=changes)

    return server


async def _name_at(ls: ContentServer, uri: str, position: lsp.Position
                   ) -> tuple[TextDocument, list[Check], int, tuple[str, int, int]] | None:
    """The document, the checks to ask, the cursor's line and the name there (name, start,
    end); None where no name is."""
    found = await _at(ls, uri, position)
    if found is None:
        return None
    doc, _, checks, (line, column) = found
    word = renaming.name_at(doc.source, line, column)
    return (doc, checks, line, word) if word is not None else None


def _overlaps(a: lsp.Range, b: lsp.Range) -> bool:
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and \
        (b.start.line, b.start.character) <= (a.end.line, a.end.character)


def _client_range(doc: TextDocument, line: int, column: int, end_line: int, end_column: int) -> lsp.Range:
    return doc.range_to_client_units(ServerTextRange(ServerTextPosition(line, column),
                                                     ServerTextPosition(end_line, end_column)))


def _hit_range(ls: ContentServer, hit: renaming.Hit) -> lsp.Range:
    return lsp.Range(_client_position(ls, hit.path, hit.line, hit.start),
                     _client_position(ls, hit.path, hit.line, hit.end))


# --------------------------------------------------------------------------- checking


async def _check_later(ls: ContentServer, uri: str, delay: float) -> None:
    """Check `uri` after `delay` seconds unless it changes again meanwhile; publish."""
    ticket = ls.tickets[uri] = ls.tickets.get(uri, 0) + 1
    if delay:
        await asyncio.sleep(delay)
    if ls.tickets.get(uri) != ticket:
        return  # changed again: the newer change is checked
    try:
        doc = ls.workspace.get_text_document(uri)
        path = _path(doc)
        if path is None or not belongs_to_ruleset(path, doc.source):
            ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
            return
        texts = _open_texts(ls)
        check = await asyncio.get_running_loop().run_in_executor(ls.pool, check_document, path, texts)
    except UsageError as err:  # a file for a ruleset that is not installed: what validate would say, at `ruleset:`
        found = re.search(r"^ruleset:", doc.source, re.MULTILINE)
        _publish_one(ls, uri, str(err), lsp.DiagnosticSeverity.Error,
                     doc.source.count("\n", 0, found.start()) if found else 0)
        return
    except Exception as err:  # a bug in the server: said in the editor, the server goes on
        log.exception("checking %s", uri)
        _publish_one(ls, uri, f"internal error in the language server (a bug in legacies): {err!r}",
                     lsp.DiagnosticSeverity.Error)
        return
    if ls.tickets.get(uri) != ticket:
        return  # changed while being checked: this result is already old
    ls.checks[uri] = check
    if check.ok:
        ls.good[check.key] = check
    _publish(ls, check)


def _publish(ls: ContentServer, check: Check) -> None:
    """The check's diagnostics for every open document it read (none: cleared)."""
    by_label: dict[str, list[Diagnostic]] = {label: [] for label in check.labels}
    for d in check.diagnostics:
        if d.file in by_label:
            by_label[d.file].append(d)
    for label, found in by_label.items():
        uri = ls.uris.get(check.labels[label])
        if uri is None or uri not in ls.workspace.text_documents:  # closed since
            continue
        doc = ls.workspace.get_text_document(uri)
        diagnostics = [_diagnostic(doc, d) for d in found]
        ls.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=doc.version))


def _publish_one(ls: ContentServer, uri: str, message: str, severity: lsp.DiagnosticSeverity, line: int = 0) -> None:
    place = lsp.Range(lsp.Position(line, 0), lsp.Position(line + 1, 0))
    diagnostic = lsp.Diagnostic(range=place, message=message, severity=severity, source="legacies")
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[diagnostic]))


def _diagnostic(doc: TextDocument, d: Diagnostic) -> lsp.Diagnostic:
    """A Diagnostic (1-based line and column, in characters) as the editor counts."""
    lines = doc.lines
    line = min(max(d.line - 1, 0), max(len(lines) - 1, 0))
    text = lines[line].rstrip("\r\n") if lines else ""
    column = min(max(d.column - 1, 0), len(text))
    if d.end_column is not None and d.end_column - 1 > column:
        end = min(d.end_column - 1, len(text))
    else:  # the name at the column, else one character
        word = query.word_at(text, column)
        end = word[2] if word is not None and word[1] == column else min(column + 1, len(text))
    server_range = ServerTextRange(ServerTextPosition(line, column), ServerTextPosition(line, max(end, column)))
    message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
    severity = lsp.DiagnosticSeverity.Warning if d.severity == WARNING else lsp.DiagnosticSeverity.Error
    return lsp.Diagnostic(range=doc.range_to_client_units(server_range), message=message, severity=severity,
                          code=d.code, source="legacies")


# --------------------------------------------------------------------------- requests


async def _at(ls: ContentServer, uri: str,
              position: lsp.Position) -> tuple[TextDocument, Path, list[Check], tuple[int, int]] | None:
    """The document, its path, the checks to ask (its latest, then the last good one of
    its ruleset) and the cursor in characters; None for a file of no ruleset."""
    try:
        doc = ls.workspace.get_text_document(uri)
        path = _path(doc)
        if path is None or not belongs_to_ruleset(path, doc.source):
            return None
        check = ls.checks.get(uri)
        if check is None:  # asked before its first check ended
            check = await asyncio.get_running_loop().run_in_executor(ls.pool, check_document, path, _open_texts(ls))
            ls.checks[uri] = check
        checks = [check]
        if not check.ok:
            good = ls.good.get(check.key) or await _good_from_disk(ls, path)
            if good is not None:
                checks.append(good)
        cursor = doc.position_from_client_units(position)
        return doc, path, checks, (cursor.line, cursor.character)
    except UsageError:
        return None
    except Exception:  # a bug in the server: logged, the request gets no answer
        log.exception("answering at %s", uri)
        return None


async def _good_from_disk(ls: ContentServer, path: Path) -> Check | None:
    """The ruleset as saved, when the editor's text has errors and no earlier check of
    it built: card texts and names come from there."""
    try:
        saved = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    check = await asyncio.get_running_loop().run_in_executor(ls.pool, check_document, path, {path: saved})
    if not check.ok:
        return None
    ls.good[check.key] = check
    return check


def _open_texts(ls: ContentServer) -> dict[Path, str]:
    """The text of every open document, by path (and each path's uri, as the editor spells it)."""
    texts: dict[Path, str] = {}
    for uri, doc in list(ls.workspace.text_documents.items()):
        path = _path(doc)
        if path is not None:
            texts[path] = doc.source
            ls.uris[path] = uri
    return texts


def _path(doc: TextDocument) -> Path | None:
    fs_path = to_fs_path(doc.uri) if doc.uri.startswith("file:") else None
    return Path(fs_path).absolute() if fs_path else None


def _client_position(ls: ContentServer, path: Path, line: int, column: int) -> lsp.Position:
    """A place in a file (maybe not open) in the editor's units."""
    uri = from_fs_path(str(path))
    doc = ls.workspace.get_text_document(uri) if uri else None
    if doc is None:
        return lsp.Position(line, column)
    return doc.position_to_client_units(ServerTextPosition(line, column))


# --------------------------------------------------------------------------- entry


class ListenError(LegaciesError):
    """--tcp HOST:PORT cannot be listened on (exit code 2)."""

    usage = True


def serve(tcp: tuple[str, int] | None = None) -> None:
    """Serve one editor over stdin/stdout, or over TCP at (host, port)."""
    _log_lines()
    server = make_server()
    if tcp is not None:
        logging.getLogger("pygls.server").setLevel(logging.INFO)  # its "Serving on" line, once bound
        try:
            serve_tcp(server, *tcp)  # pygls's loop, with a reader no client can stop (cli/frames.py)
        except KeyboardInterrupt:
            pass
        except OSError as err:  # the port is taken, the host is not this machine's...
            raise ListenError(f"cannot listen on {tcp[0]}:{tcp[1]}: {err.strerror or err}") from None
        return
    if sys.stdin.isatty():  # a person, not an editor: say what this is
        print("legacies lsp: a language server, for an editor to start (docs/cli.md, \"legacies lsp: the "
              "editor\"); it reads the protocol on standard input. Ctrl-D ends it.", file=sys.stderr)
    protocol_out = sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must never corrupt the protocol's stream
    serve_io(server, sys.stdin.buffer, protocol_out)


class _OneLine(logging.Formatter):
    """A log record as one line: an exception by its type and message, no traceback
    (the editor shows the server's standard error as its log)."""

    def format(self, record: logging.LogRecord) -> str:
        text = f"legacies lsp: {record.getMessage()}"
        if text.startswith("legacies lsp: Serving on"):  # pygls names each socket as a Python tuple
            places = ", ".join(f"{host}:{port}" for host, port in re.findall(r"\('([^']*)', (\d+)", text))
            return f"legacies lsp: listening on {places} (Ctrl-C ends it)"
        if record.exc_info and record.exc_info[1] is not None:
            err = record.exc_info[1]
            text += f": {type(err).__name__}: {err}"
        return text


def _log_lines() -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine())
    handler.addFilter(lambda r: r.levelno >= logging.WARNING or r.getMessage().startswith("Serving on"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.WARNING)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("legacies")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree without installing
        return "0"
