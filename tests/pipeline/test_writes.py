"""The one writer of the files a user keeps (pipeline/writes.py, issue 22 part 2): whole
or not at all, the old file kept on any failure, no temporary file left, the failure in
words; an output folder checked before any work. A full disk and a read-only file system
are simulated by the system calls failing as they do there (ENOSPC, EROFS: the fixtures
of tests/conftest.py)."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest

from legacies.pipeline import writes
from legacies.pipeline.writes import WriteError, check_folder, write_files, write_whole


def test_a_file_is_written_whole_keeping_its_permissions(tmp_path: Path) -> None:
    target = tmp_path / "save.json"
    write_whole(target, "first")
    os.chmod(target, 0o640)
    write_whole(target, "second " * 10_000)
    assert target.read_text() == "second " * 10_000 and stat.S_IMODE(target.stat().st_mode) == 0o640
    assert os.listdir(tmp_path) == ["save.json"]


def test_a_full_disk_keeps_the_old_file_and_says_so(tmp_path: Path, full_disk: Any) -> None:
    target = tmp_path / "report.json"
    target.write_text('{"valid": true}')
    full_disk()
    with pytest.raises(WriteError) as caught:
        write_whole(target, "x" * 100_000)
    assert str(caught.value) == f"cannot write {target}: the disk is full"
    assert target.read_text() == '{"valid": true}' and os.listdir(tmp_path) == ["report.json"]


def test_several_files_are_written_all_or_none(tmp_path: Path, full_disk: Any) -> None:
    first, second = tmp_path / "report.json", tmp_path / "report.html"
    first.write_text("old json")
    second.write_text("old html")
    full_disk(after=1000)  # the first fits, the second does not
    with pytest.raises(WriteError, match="report.html: the disk is full"):
        write_files({first: "j" * 500, second: "h" * 5000})
    assert first.read_text() == "old json" and second.read_text() == "old html"
    assert sorted(os.listdir(tmp_path)) == ["report.html", "report.json"]


def test_a_read_only_file_system_is_said_in_words(tmp_path: Path, read_only: Any) -> None:
    read_only()
    with pytest.raises(WriteError, match="the file system is read-only"):
        write_whole(tmp_path / "save.json", "text")
    with pytest.raises(WriteError, match="the file system is read-only"):
        check_folder(tmp_path / "new" / "folder")


def test_a_device_is_never_replaced_by_a_file() -> None:
    if not os.path.exists("/dev/null"):
        pytest.skip("no /dev/null")
    with pytest.raises(WriteError, match="not a regular file"):
        write_whole("/dev/null", "text")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_folder_is_checked_without_being_made(tmp_path: Path) -> None:
    check_folder(tmp_path / "not" / "yet")  # can be made: fine, and not made
    assert os.listdir(tmp_path) == []
    (tmp_path / "file").write_text("")
    with pytest.raises(WriteError, match="not a folder"):
        check_folder(tmp_path / "file")
    with pytest.raises(WriteError, match="is not a folder"):
        check_folder(tmp_path / "file" / "below")


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes into any folder")
def test_a_folder_without_write_permission_is_refused(tmp_path: Path) -> None:
    os.chmod(tmp_path, 0o500)
    try:
        with pytest.raises(WriteError, match="permission denied"):
            check_folder(tmp_path)
    finally:
        os.chmod(tmp_path, 0o700)
