"""The effect grammar's parser kept between processes: Lark builds its LALR tables from
effects.lark in a third of a second (a third of a cold `validate`), so the built parser
is kept in the cache folder and read back.

Lark's own cache (`Lark(cache=...)`) pickles the parser: whoever can write to the cache
folder would run code as the user. This one is plain data (dsl/cache_codec.py: JSON of
Lark's serialised tables), in a file named by the grammar's hash and Lark's version,
whose first line repeats both in full and is checked on read: a file made for another
grammar (or another Lark) is never taken for this one. Anything that does not read,
does not check, or does not load as an LALR parser with the options asked for is built
again from the grammar and the file written afresh (whole: a temporary file renamed).
An unusable cache folder (read only) means building each time, as with no cache. The file
is opened without waiting (a FIFO in its place would block every command that parses)
and read only when it is a regular file, the user's own and no other user's to write
(dsl/parse_cache.py `owned`), and not too large.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
from typing import Any

from lark import Lark, __version__ as lark_version
from lark.exceptions import LarkError
from lark.grammar import Rule
from lark.lark import _LOAD_ALLOWED_OPTIONS
from lark.lexer import TerminalDef

from .cache_codec import dump_data, load_data
from .parse_cache import read_owned

MAX_FILE_BYTES = 16 * 1024 * 1024  # the tables are about 0.4 MB


def lark_parser(grammar: str, folder: str | None, postlex: Any, **options: Any) -> Lark:
    """An LALR parser of `grammar` with `options` (and `postlex`, which is code, so never
    kept), read from `folder` when a file there checks, else built (and kept there)."""
    options = {"parser": "lalr", **options}
    digest = hashlib.sha256(grammar.encode("utf-8")).hexdigest()
    path = os.path.join(folder, f"effects-{digest[:16]}-lark{lark_version}.json") if folder else None
    header = json.dumps({"grammar": digest, "lark": lark_version, "options": _kept(options)}, sort_keys=True)
    if path is not None:
        parser = _read(path, header, postlex, options)
        if parser is not None:
            return parser
    parser = Lark(grammar, postlex=postlex, **options)
    if path is not None:
        _write(path, header, parser)
    return parser


def _kept(options: dict[str, Any]) -> dict[str, Any]:
    """The options that shape the tables (those passed at load time are not kept)."""
    return {k: v for k, v in options.items() if k not in _LOAD_ALLOWED_OPTIONS}


def _read_file(path: str) -> bytes | None:
    """The file's bytes; None unless it is a regular file the user owns, within the size."""
    return read_owned(path, MAX_FILE_BYTES)


def _read(path: str, header: str, postlex: Any, options: dict[str, Any]) -> Lark | None:
    try:
        raw = _read_file(path)
        if raw is None:
            return None
        first, _, body = raw.partition(b"\n")
        if first.decode("utf-8") != header:  # another grammar, another Lark, other options, or not ours
            return None
        tables = load_data(body)
        parser = Lark._load_from_dict(tables["data"], tables["memo"], postlex=postlex,
                                      **{k: v for k, v in options.items() if k in _LOAD_ALLOWED_OPTIONS})
    except (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError, re.error,
            LarkError):  # missing, damaged, garbage, or tables Lark cannot load: build them again
        return None
    loaded = {k: getattr(parser.options, k, None) for k in _kept(options)}
    return parser if loaded == _kept(options) else None


def _write(path: str, header: str, parser: Lark) -> None:
    """Keep the parser's tables (best effort: a cache that cannot be written is no cache)."""
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    data["options"] = {k: v for k, v in data["options"].items() if k not in _LOAD_ALLOWED_OPTIONS}
    temp = f"{path}.{secrets.token_hex(4)}.tmp"
    try:
        body = dump_data({"data": data, "memo": memo})
        with open(temp, "w", encoding="utf-8") as f:
            f.write(header + "\n" + body)
        os.replace(temp, path)
    except (OSError, TypeError, ValueError):
        try:
            os.unlink(temp)
        except OSError:
            pass
