"""How big a bundle may be. Checked on the archive as uploaded and again, byte by byte, while it
is unpacked (a zip's declared sizes are not trusted: a zip bomb declares small ones)."""

from __future__ import annotations

from dataclasses import dataclass

MIB = 1024 * 1024


@dataclass(frozen=True)
class BundleLimits:
    max_bundle_bytes: int = 5 * MIB  # the zip file itself
    max_files: int = 200
    max_unpacked_bytes: int = 20 * MIB  # all files together, unpacked
    max_path_length: int = 200
    max_depth: int = 10  # folders deep

    def describe(self) -> str:
        return (
            f"at most {self.max_bundle_bytes // MIB} MiB zipped, {self.max_files} files, "
            f"{self.max_unpacked_bytes // MIB} MiB unpacked"
        )


DEFAULT_LIMITS = BundleLimits()
