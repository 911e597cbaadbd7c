"""Every test process (and every `legacies` subprocess a test starts) keeps its parse
cache in a fresh temporary folder, never in the user's ~/.cache: tests see cold and
warm caches of their own and leave nothing behind in the home folder.

An internal error (a bug in legacies met while loading, checking or setting up a
ruleset: pipeline/internal_errors.py) fails the test during which it was made, even
when the test only looked at other diagnostics; a test about one says so with
`@pytest.mark.internal_error`."""

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


@pytest.fixture(autouse=True)
def _no_internal_error(request: pytest.FixtureRequest) -> object:
    from legacies.pipeline import internal_errors

    before = len(internal_errors.REPORTED)
    yield
    made = internal_errors.REPORTED[before:]
    if made and request.node.get_closest_marker("internal_error") is None:
        pytest.fail(f"{len(made)} internal error(s) (a bug in legacies) during this test; the first:\n{made[0]}",
                    pytrace=False)
