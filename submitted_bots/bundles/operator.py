"""Bundles the operator names on the command line (`run_tournament --bots ./mybot`): a folder or
zip on disk, stored like an upload (so that workers on other machines get it through the
storage), with no owner and no smoke match (the operator chose to run it), and always jailed.
The same content is the same version, rated as before; changed content is the next version."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import transaction

from engine.bundles import BundleError, check_against_registry, inspect_zip, load_bundle
from engine.plugins import registry
from submitted_bots.bundles.limits import server_limits
from submitted_bots.models import Bot
from submitted_bots.names import reserved_names


def is_bundle_path(text: str) -> bool:
    """A bot argument that is a bundle on disk: an existing folder or .zip file."""
    return os.path.isdir(text) or (text.endswith(".zip") and os.path.isfile(text))


def zipped(path: Path) -> bytes:
    """The bundle as a zip (a zip is stored as it is)."""
    if path.is_file():
        return path.read_bytes()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in sorted(p for p in path.rglob("*") if p.is_file()):
            info = zipfile.ZipInfo(file.relative_to(path).as_posix(), (1980, 1, 1, 0, 0, 0))
            info.external_attr = (file.stat().st_mode & 0o777 | 0o100000) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, file.read_bytes())
    return buffer.getvalue()


def operator_bundle(text: str) -> Bot:
    path = Path(text)
    try:
        bundle = load_bundle(path, server_limits())
        check_against_registry(bundle.manifest, registry())
        data = zipped(path)
        contents = inspect_zip(io.BytesIO(data), server_limits())
    except BundleError as exc:
        raise ValidationError(f"bundle {text!r}: {exc}") from None
    name = contents.manifest.name
    if name.lower() in reserved_names():
        raise ValidationError(f"bundle {text!r}: {name!r} is the name of a built-in bot")
    same = Bot.objects.filter(owner__isnull=True, kind=Bot.Kind.BUNDLE, name=name)
    existing = same.filter(sha256=contents.sha256).first()
    if existing is not None:
        return existing
    with transaction.atomic():
        numbers = [int(v) for v in same.values_list("version", flat=True) if v.isdigit()]
        bot = Bot(
            name=name,
            kind=Bot.Kind.BUNDLE,
            version=str(max(numbers, default=0) + 1),
            description=contents.manifest.description,
            status=Bot.Status.READY,
            sha256=contents.sha256,
            size=contents.size,
            manifest=contents.manifest.as_json(),
            validation={"skipped": "entered by the operator from the command line"},
        )
        bot.bundle.save(f"{name}.zip", ContentFile(data), save=False)
        bot.save()
    return bot
