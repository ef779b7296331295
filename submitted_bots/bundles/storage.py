"""The storage of uploaded bundles: whatever `settings.STORAGES["bundles"]` is, looked up at
each use (a FileField keeps the storage object it is given at import, so this stands in for
it and a changed setting, as in tests, takes effect)."""

from __future__ import annotations

from django.core.files.storage import Storage, storages
from django.utils.deconstruct import deconstructible


@deconstructible(path="submitted_bots.bundles.storage.BundleStorage")
class BundleStorage(Storage):
    @staticmethod
    def target() -> Storage:
        return storages["bundles"]

    def open(self, name, mode="rb"):
        return self.target().open(name, mode)

    def save(self, name, content, max_length=None):
        return self.target().save(name, content, max_length=max_length)

    def delete(self, name):
        return self.target().delete(name)

    def exists(self, name):
        return self.target().exists(name)

    def size(self, name):
        return self.target().size(name)

    def url(self, name):
        return self.target().url(name)

    def path(self, name):
        return self.target().path(name)

    def listdir(self, path):
        return self.target().listdir(path)

    def generate_filename(self, filename):
        return self.target().generate_filename(filename)

    def get_available_name(self, name, max_length=None):
        return self.target().get_available_name(name, max_length=max_length)
