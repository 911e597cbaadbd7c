"""docs/architecture.md names every module of the layers (their sub-packages too, such as
cli/commands/): a module added or split off without its line in the layers table fails
here, naming it."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("dsl", "interpreter", "pipeline", "view", "agents", "cli")


def test_the_layers_table_names_every_module() -> None:
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    modules = [f"{layer}/{p.relative_to(ROOT / layer).as_posix()}" for layer in LAYERS
               for p in sorted((ROOT / layer).rglob("*.py")) if p.name != "__init__.py"]
    assert len(modules) > 100
    missing = [m for m in modules if f"`{m}`" not in doc]
    assert not missing, f"docs/architecture.md does not name {', '.join(missing)}"
