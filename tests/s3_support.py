"""A real S3 API server for the tests: moto's server mode (`moto[server]`, a dev dependency)
on a free port of this machine, in a thread of the test process (`s3_server`) or as a process
of its own (`S3Server.process`, for stacks of several processes). The code under test talks to
it over HTTP through boto3, exactly as to MinIO or AWS: nothing of boto3 is mocked."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass

import pytest

from tests.e2e_support import free_port

ACCESS_KEY = "truco-test-key"
SECRET_KEY = "truco-test-secret"
REGION = "us-east-1"


@dataclass
class S3Server:
    endpoint: str
    bucket: str

    def client(self):
        import boto3

        return boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            aws_access_key_id=ACCESS_KEY,
            aws_secret_access_key=SECRET_KEY,
            region_name=REGION,
        )

    def environment(self) -> dict[str, str]:
        """What a process of the stack is given to keep its bundles in this bucket."""
        return {
            "TRUCO_BUNDLE_STORAGE": "s3",
            "AWS_STORAGE_BUCKET_NAME": self.bucket,
            "AWS_S3_ENDPOINT_URL": self.endpoint,
            "AWS_ACCESS_KEY_ID": ACCESS_KEY,
            "AWS_SECRET_ACCESS_KEY": SECRET_KEY,
            "AWS_S3_REGION_NAME": REGION,
        }

    def storage_setting(self) -> dict:
        """settings.STORAGES["bundles"] for this process, as TRUCO_BUNDLE_STORAGE=s3 makes it."""
        from config.settings import bundle_storage_setting

        saved = {name: os.environ.get(name) for name in self.environment()}
        os.environ.update(self.environment())
        try:
            return bundle_storage_setting()
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value

    def object_keys(self) -> list[str]:
        listing = self.client().list_objects_v2(Bucket=self.bucket)
        return [item["Key"] for item in listing.get("Contents", [])]


def _new_bucket(endpoint: str) -> S3Server:
    server = S3Server(endpoint, f"bundles-{uuid.uuid4().hex[:12]}")
    server.client().create_bucket(Bucket=server.bucket)
    return server


@pytest.fixture(scope="session")
def _moto_thread():
    pytest.importorskip("moto.server", reason="moto[server] is a dev dependency")
    from moto.server import ThreadedMotoServer

    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    yield f"http://127.0.0.1:{port}"
    server.stop()


@pytest.fixture
def s3_server(_moto_thread) -> S3Server:
    """A fresh bucket on a moto server in this test process's thread."""
    return _new_bucket(_moto_thread)


@pytest.fixture
def s3_process():
    """A fresh bucket on a moto server in a process of its own (`moto_server`), for tests
    whose stack is several processes."""
    pytest.importorskip("moto.server", reason="moto[server] is a dev dependency")
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    endpoint = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                server = _new_bucket(endpoint)
                break
            except Exception:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.2)
        yield server
    finally:
        process.kill()
        process.wait()
