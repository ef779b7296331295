"""Building bundle zips in memory for the tests, including the hostile ones."""

from __future__ import annotations

import io
import stat
import zipfile

GOOD_MANIFEST = 'name = "greedy"\ncommand = ["python3", "bot.py"]\n'


def make_zip(files: dict[str, bytes | str], *, symlinks: dict[str, str] | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFREG | 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
        for name, target in (symlinks or {}).items():
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, target)
    return buffer.getvalue()


def good_zip(**extra: bytes | str) -> bytes:
    return make_zip({"bot.toml": GOOD_MANIFEST, "bot.py": "print('hi')\n", **extra})
