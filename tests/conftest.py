"""Every test process (and every `legacies` subprocess a test starts) keeps its parse
cache in a fresh temporary folder, never in the user's ~/.cache: tests see cold and
warm caches of their own and leave nothing behind in the home folder."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

if "LEGACIES_CACHE_DIR" not in os.environ:
    _folder = tempfile.mkdtemp(prefix="legacies-test-cache-")
    os.environ["LEGACIES_CACHE_DIR"] = _folder

    @pytest.fixture(scope="session", autouse=True)
    def _remove_cache_folder() -> object:
        yield
        shutil.rmtree(_folder, ignore_errors=True)
