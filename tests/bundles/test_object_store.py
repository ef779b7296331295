"""Bundles in an S3-compatible object store (TRUCO_BUNDLE_STORAGE=s3, django-storages over
boto3), against a real S3 API server (moto's server mode, tests/s3_support.py): an upload is
kept in the bucket, a machine that shares no files with the web host fetches it once, checks
its SHA-256 and plays from its own unpacked copy; the copies are a bounded cache, least
recently used out first, safe for several processes of one machine."""

from __future__ import annotations

import contextlib
import io
import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.files.storage import storages
from django.core.files.uploadedfile import SimpleUploadedFile

from engine.bundles import DEFAULT_LIMITS, BundleError
from submitted_bots.bundles.cache import BundleCache, BundleUnavailable
from submitted_bots.bundles.files import unpacked_folder
from submitted_bots.bundles.uploads import upload_version
from submitted_bots.models import Bot
from submitted_bots.smoke_match import validate_version
from tests.e2e_support import PROJECT_DIR
from tests.factories import UserFactory

from .zips import good_zip

pytestmark = pytest.mark.django_db


@pytest.fixture
def bucket(s3_server, settings):
    """This process keeps its bundles in a fresh bucket of the S3 server."""
    settings.STORAGES = {**settings.STORAGES, "bundles": s3_server.storage_setting()}
    storages._storages.pop("bundles", None)
    yield s3_server
    storages._storages.pop("bundles", None)


def another_machine(settings, tmp_path, name: str) -> Path:
    """A machine of its own: nothing unpacked yet (the bucket is all it shares)."""
    settings.TRUCO_BUNDLE_CACHE_DIR = tmp_path / name / "bundle-cache"
    return settings.TRUCO_BUNDLE_CACHE_DIR


def test_an_upload_is_kept_in_the_bucket_and_another_machine_plays_its_own_copy(
    bucket, settings, tmp_path
):
    owner = UserFactory()
    bot = upload_version(owner, SimpleUploadedFile("bot.zip", good_zip(), "application/zip"))
    [key] = bucket.object_keys()
    assert key.startswith("bundles/") and key.endswith(".zip") and bot.sha256[:16] in key
    stored = bucket.client().get_object(Bucket=bucket.bucket, Key=key)["Body"].read()
    assert stored == good_zip()
    assert not (tmp_path / "bundles").exists()  # nothing went to a local folder

    cache = another_machine(settings, tmp_path, "worker-1")
    folder = unpacked_folder(bot)
    assert folder.parent == cache and (folder / "bot.py").read_text() == "print('hi')\n"
    # Fetched once: with the object gone, this machine still has its copy...
    bucket.client().delete_object(Bucket=bucket.bucket, Key=key)
    assert unpacked_folder(bot) == folder
    # ...and a machine without one cannot make it up; the storage's trouble is not the bot's:
    # its validation is tried again later, the version is not rejected.
    another_machine(settings, tmp_path, "worker-2")
    with pytest.raises(BundleUnavailable, match="cannot be read from the bundle storage"):
        unpacked_folder(bot)
    with pytest.raises(BundleUnavailable):
        validate_version(bot.pk)
    bot.refresh_from_db()
    assert bot.status == Bot.Status.VALIDATING


def test_a_stored_zip_that_is_not_the_uploaded_one_is_refused(bucket, settings, tmp_path):
    bot = upload_version(
        UserFactory(), SimpleUploadedFile("bot.zip", good_zip(), "application/zip")
    )
    [key] = bucket.object_keys()
    bucket.client().put_object(Bucket=bucket.bucket, Key=key, Body=good_zip(extra="tampered"))
    cache = another_machine(settings, tmp_path, "worker")
    with pytest.raises(BundleError, match="does not match its SHA-256"):
        unpacked_folder(bot)
    assert not any(p.name == bot.sha256 for p in cache.iterdir())


def test_the_switch_and_django_storages_names_come_from_the_environment(s3_server):
    probe = (
        "import django; django.setup(); from django.core.files.storage import storages; "
        "s = storages['bundles']; print(type(s).__name__, s.bucket_name, s.endpoint_url)"
    )
    env = {**os.environ, **s3_server.environment(), "DJANGO_SETTINGS_MODULE": "config.settings"}
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=PROJECT_DIR, env=env, capture_output=True, text=True
    )
    assert done.stdout.split() == ["S3Storage", s3_server.bucket, s3_server.endpoint]
    env["TRUCO_BUNDLE_STORAGE"] = "ftp"
    refused = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=PROJECT_DIR,
        env=env,
        capture_output=True,
        text=True,
    )
    assert refused.returncode != 0
    assert "TRUCO_BUNDLE_STORAGE must be 'filesystem' or 's3', not 'ftp'" in refused.stderr
    del env["TRUCO_BUNDLE_STORAGE"]  # the embedded default: a folder
    local = subprocess.run(
        [sys.executable, "-c", probe.replace("s.bucket_name, s.endpoint_url", "s.location")],
        cwd=PROJECT_DIR,
        env=env,
        capture_output=True,
        text=True,
    )
    assert local.stdout.split()[0] == "FileSystemStorage"
    assert local.stdout.split()[1].endswith("bundles")


# --- the cache ----------------------------------------------------------------------------


def zip_and_sha(n: int) -> tuple[bytes, str]:
    import hashlib

    data = good_zip(extra=f"version {n}\n" + "x" * 1000)
    return data, hashlib.sha256(data).hexdigest()


def opener(data: bytes, log: list | None = None):
    def open_stored():
        if log is not None:
            log.append(1)
        return contextlib.closing(io.BytesIO(data))

    return open_stored


def set_last_use(folder: Path, seconds_ago: float) -> None:
    when = time.time() - seconds_ago
    os.utime(folder, (when, when))


def test_the_cache_keeps_its_bounds_least_recently_used_out_first(tmp_path):
    cache = BundleCache(tmp_path, max_bytes=10**9, max_entries=2, keep_recent_seconds=0)
    bundles = [zip_and_sha(n) for n in range(3)]
    folders = []
    for age, (data, sha) in zip((300, 200), bundles[:2], strict=True):
        folders.append(cache.folder(sha, opener(data), DEFAULT_LIMITS).path)
        set_last_use(folders[-1], age)
    fetches: list = []
    assert not cache.folder(bundles[0][1], opener(bundles[0][0], fetches), DEFAULT_LIMITS).fetched
    assert fetches == []  # a hit reads nothing from the storage, and counts as a use
    third = cache.folder(bundles[2][1], opener(bundles[2][0]), DEFAULT_LIMITS)
    assert third.fetched
    # the second, least recently used, went
    assert sorted(path.name for _, _, path in cache.entries()) == sorted(
        [bundles[0][1], bundles[2][1]]
    )
    assert not folders[1].exists() and folders[0].is_dir()


def test_the_cache_keeps_its_size_and_spares_folders_in_use(tmp_path):
    bundles = [zip_and_sha(n) for n in range(3)]
    cache = BundleCache(tmp_path, max_bytes=2500, max_entries=100, keep_recent_seconds=600)
    for data, sha in bundles:
        cache.folder(sha, opener(data), DEFAULT_LIMITS)
    # About 1 kB each: over the size, but every folder was used within the last ten minutes
    # (a jail may have it mounted): none is deleted under a running bot.
    assert len(cache.entries()) == 3
    for _, _, folder in cache.entries():
        set_last_use(folder, 3600)
    assert len(cache.evict()) == 1 and sum(size for _, size, _ in cache.entries()) <= 2500


def _unpack_in_another_process(root: str, data: bytes, sha: str, log: str) -> str:
    def open_stored():
        with open(log, "a") as out:
            out.write("fetch\n")
        return contextlib.closing(io.BytesIO(data))

    cache = BundleCache(Path(root), max_bytes=10**9, max_entries=10)
    folder = cache.folder(sha, open_stored, DEFAULT_LIMITS).path
    return (folder / "bot.py").read_text()


def test_processes_of_one_machine_fetch_a_bundle_once_and_see_it_whole(tmp_path):
    data, sha = zip_and_sha(7)
    log = tmp_path / "fetches.log"
    with multiprocessing.get_context("fork").Pool(4) as pool:
        seen = pool.starmap(
            _unpack_in_another_process, [(str(tmp_path / "cache"), data, sha, str(log))] * 8
        )
    assert seen == ["print('hi')\n"] * 8
    assert log.read_text() == "fetch\n"
    assert [p.name for p in (tmp_path / "cache").iterdir() if not p.name.startswith(".")] == [sha]
