"""Zip and folder bundles: every hostile archive is refused with its reason, and nothing is ever
written outside the folder it is unpacked into."""

from __future__ import annotations

import io
import os
import zipfile

import pytest

from engine.bundles import BundleError, BundleLimits, inspect_folder, inspect_zip, unpack_zip

from .zips import GOOD_MANIFEST, good_zip, make_zip


def inspect(data: bytes, **limits):
    return inspect_zip(io.BytesIO(data), BundleLimits(**limits))


def test_a_good_zip_is_read_with_its_hash_and_sizes():
    data = good_zip()
    contents = inspect(data)
    assert contents.manifest.name == "greedy"
    assert sorted(contents.files) == ["bot.py", "bot.toml"]
    assert contents.size == len(data)
    import hashlib

    assert contents.sha256 == hashlib.sha256(data).hexdigest()


def test_a_zip_of_one_folder_is_that_folder():
    data = make_zip({"greedy/bot.toml": GOOD_MANIFEST, "greedy/bot.py": "x"})
    assert sorted(inspect(data).files) == ["bot.py", "bot.toml"]


@pytest.mark.parametrize(
    "name, message",
    [
        ("../evil.py", "goes out of the bundle"),
        ("lib/../../evil.py", "goes out of the bundle"),
        ("/etc/cron.d/evil", "absolute paths"),
        ("C:/evil", "absolute paths"),
        ("lib\\..\\..\\evil", "backslash"),
    ],
)
def test_zip_slip_paths_are_refused(name, message, tmp_path):
    data = good_zip(**{name: "boom"})
    with pytest.raises(BundleError, match=message):
        inspect(data)
    with pytest.raises(BundleError, match=message):
        unpack_zip(io.BytesIO(data), tmp_path / "out")
    assert not (tmp_path / "out").exists()
    assert os.listdir(tmp_path) == []  # not even the staging folder is left


def test_symlinks_are_refused(tmp_path):
    data = make_zip({"bot.toml": GOOD_MANIFEST, "bot.py": "x"}, symlinks={"secrets": "/etc"})
    with pytest.raises(BundleError, match="symlink 'secrets'"):
        unpack_zip(io.BytesIO(data), tmp_path / "out")
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "bot.toml").write_text(GOOD_MANIFEST)
    (folder / "bot.py").write_text("x")
    (folder / "link").symlink_to("/etc/passwd")
    with pytest.raises(BundleError, match="symlink 'link'"):
        inspect_folder(folder)


def test_duplicate_names_are_refused():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("bot.toml", GOOD_MANIFEST)
        archive.writestr("bot.py", "a")
        archive.writestr("./bot.py", "b")  # the same file once normalised
        with pytest.warns(UserWarning, match="Duplicate name"):
            archive.writestr("bot.py", "c")
    with pytest.raises(BundleError, match="duplicate file name 'bot.py'"):
        inspect(buffer.getvalue())
    with pytest.raises(BundleError, match="both a file and a folder"):
        inspect(good_zip(lib="x", **{"lib/a.py": "y"}))


def test_size_and_count_limits():
    with pytest.raises(BundleError, match="bundle too big"):
        inspect(good_zip(big=os.urandom(3000)), max_bundle_bytes=2000)
    with pytest.raises(BundleError, match="too many files: 12 in the bundle, at most 10"):
        inspect(good_zip(**{f"f{i}": "x" for i in range(10)}), max_files=10)


def test_a_zip_bomb_is_stopped_by_the_bytes_read_not_the_declared_sizes(tmp_path):
    # 50 MiB of zeros compress to about 50 KiB: the zip itself is within its limit.
    data = good_zip(zeros=b"\0" * (50 * 1024 * 1024))
    assert len(data) < 1024 * 1024
    with pytest.raises(BundleError, match="too big unpacked: over 20 MiB"):
        unpack_zip(io.BytesIO(data), tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_no_manifest_missing_program_and_missing_module():
    with pytest.raises(BundleError, match="no bot.toml at the top"):
        inspect(make_zip({"bot.py": "x"}))
    with pytest.raises(BundleError, match="no such command: './bot'"):
        inspect(make_zip({"bot.toml": 'name = "x"\ncommand = ["./bot"]'}))
    with pytest.raises(BundleError, match="no such module"):
        inspect(make_zip({"bot.toml": 'name = "x"\npython_class = "mybot:Greedy"'}))
    with pytest.raises(BundleError, match="not a zip file"):
        inspect(b"this is not a zip")


def test_unpacking_writes_only_the_bundle_and_marks_its_program_executable(tmp_path):
    data = make_zip({"bot.toml": 'name = "x"\ncommand = ["./bin/bot"]', "bin/bot": "#!/bin/sh\n"})
    unpack_zip(io.BytesIO(data), tmp_path / "out")
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == [
        "out",
        "out/bin",
        "out/bin/bot",
        "out/bot.toml",
    ]
    assert os.access(tmp_path / "out" / "bin" / "bot", os.X_OK)
    assert not os.access(tmp_path / "out" / "bot.toml", os.X_OK)
