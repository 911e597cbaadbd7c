"""The seat's view's JSON Schema (draft 2020-12), made from view/model.py and shipped as
schemas/seat-view.schema.json for the faces written in other languages (the browser's
page) and for tests. `python -m legacies.view.schema [FOLDER]` writes it again."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from .model import SeatView

FILE_NAME = "seat-view.schema.json"


def view_schema() -> dict[str, Any]:
    body = SeatView.model_json_schema()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"https://legacies.invalid/schemas/{FILE_NAME}", **body}


def schema_text() -> str:
    return json.dumps(view_schema(), indent=2, ensure_ascii=False) + "\n"


def shipped_schema() -> dict[str, Any]:
    """The schema as installed with the package."""
    from importlib.resources import files

    return json.loads(files("legacies.schemas").joinpath(FILE_NAME).read_text(encoding="utf-8"))


if __name__ == "__main__":  # pragma: no cover - a maintainer's command
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "schemas"
    (folder / FILE_NAME).write_text(schema_text(), encoding="utf-8")
    print(folder / FILE_NAME)
