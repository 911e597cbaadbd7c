"""cli/main.py's table of commands: `legacies --help` lists each command from the table
(its module is not imported for that), so the table must say what the commands' own
docstrings say and name every command of cli/commands/; and the listing must stay light:
no service (pipeline, agents, interpreter, dsl) is imported for it."""

from __future__ import annotations

import importlib
import json
import pkgutil
import subprocess
import sys

import typer.main

import legacies.cli.commands
from legacies.cli.help_text import reflow
from legacies.cli.main import COMMANDS

SERVICES = ("legacies.pipeline", "legacies.agents", "legacies.interpreter", "legacies.dsl")


def _commands_in(module_name: str) -> dict[str, str]:
    """The commands a module of cli/commands/ registers: name -> the first paragraph of
    its docstring, as typer lists it."""
    module = importlib.import_module(f"legacies.cli.commands.{module_name}")
    found = {}
    for info in module.app.registered_commands:
        assert info.callback is not None
        name = info.name or typer.main.get_command_name(info.callback.__name__)
        found[name] = (reflow(info.callback.__doc__) or "").split("\n\n")[0]
    return found


def test_each_listed_help_is_the_first_paragraph_of_its_commands_docstring() -> None:
    modules = sorted(m.name for m in pkgutil.iter_modules(legacies.cli.commands.__path__))
    defined = {name: (module, summary) for module in modules for name, summary in _commands_in(module).items()}
    assert len(defined) == 16
    assert {name: module for name, (module, _) in defined.items()} == {n: m for n, (m, _) in COMMANDS.items()}
    for name, (_, summary) in COMMANDS.items():
        assert summary == defined[name][1], f"COMMANDS[{name!r}] is not the first paragraph of its docstring"


def _imported_after(code: str, prefixes: tuple[str, ...] = ("legacies",)) -> list[str]:
    """The legacies.* modules (or those `prefixes` begin) a new process has imported after running `code`."""
    script = (f"import json, sys\n{code}\n"
              f"print(json.dumps(sorted(m for m in sys.modules if m.startswith({prefixes!r}))))")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return list(json.loads(proc.stdout.splitlines()[-1]))


def test_the_command_and_its_listing_import_no_service() -> None:
    imported = _imported_after("import legacies.cli.main")
    assert "legacies.cli.main" in imported
    assert [m for m in imported if m.startswith(SERVICES)] == []
    listed = _imported_after("from legacies.cli.main import app\ntry:\n    app(['--help'])\nexcept SystemExit:\n    pass")
    assert [m for m in listed if m.startswith(SERVICES) or m.startswith("legacies.cli.commands.")] == []


def test_a_commands_help_imports_its_module_only() -> None:
    shown = _imported_after("from legacies.cli.main import app\ntry:\n    app(['lsp', '--help'])\n"
                            "except SystemExit:\n    pass")
    assert [m for m in shown if m.startswith("legacies.cli.commands.")] == ["legacies.cli.commands.lsp"]
    assert [m for m in shown if m.startswith(SERVICES)] == []
    shown = _imported_after("from legacies.cli.main import app\ntry:\n    app(['replay', '--help'])\n"
                            "except SystemExit:\n    pass")
    assert [m for m in shown if m.startswith("legacies.cli.commands.")] == ["legacies.cli.commands.play"]


LIBRARIES = ("pydantic", "jsonschema", "lark", "ruamel")


def test_a_commands_help_imports_no_service_nor_library() -> None:
    """`legacies CMD --help` (the bench's help_s is `play --help`) imports neither the
    services nor the libraries they call (the models' pydantic, jsonschema, lark, the YAML
    reader): each module of cli/commands/ imports them when one of its commands runs.
    Typer's own help needs rich."""
    for command in sorted({module: name for name, (module, _) in COMMANDS.items()}.values()):
        shown = _imported_after(f"from legacies.cli.main import app\ntry:\n    app([{command!r}, '--help'])\n"
                                "except SystemExit:\n    pass", ("legacies", *LIBRARIES))
        assert [m for m in shown if m.startswith(SERVICES + LIBRARIES)] == [], command
