"""A user's upload becomes a new version of their bot: `alice/greedy v1`, `v2`, ... each a Bot
with a Player of its own (rated apart), stored with its SHA-256, size and upload time, status
`validating` until a worker's smoke match says `ready` or `rejected`."""

from __future__ import annotations

import io

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import transaction

from engine.bundles import BundleError, Contents, check_against_registry, inspect_zip
from engine.plugins import registry
from submitted_bots.bundles.limits import server_limits
from submitted_bots.models import Bot
from submitted_bots.names import check_user_bot_name
from submitted_bots.tasks import validate_bot


def read_upload(upload) -> bytes:
    """The bytes of an uploaded file, refused before reading when it is over the limit."""
    limit = server_limits().max_bundle_bytes
    size = getattr(upload, "size", None)
    if size is not None and size > limit:
        raise ValidationError(
            {"bundle": f"bundle too big: {size / (1 << 20):.2f} MiB, at most {limit >> 20} MiB"}
        )
    data = upload.read(limit + 1)
    if len(data) > limit:
        raise ValidationError({"bundle": f"bundle too big: over {limit >> 20} MiB"})
    return data


def check_bundle(data: bytes) -> Contents:
    """Everything that can be said of a bundle without running it, as field errors."""
    try:
        contents = inspect_zip(io.BytesIO(data), server_limits())
        check_against_registry(contents.manifest, registry())
    except BundleError as exc:
        raise ValidationError({"bundle": str(exc)}) from None
    try:
        check_user_bot_name(contents.manifest.name)
    except ValidationError as exc:
        raise ValidationError({"bundle": f"bad manifest: {' '.join(exc.messages)}"}) from None
    return contents


def next_version(owner, name: str) -> str:
    numbers = [
        int(v)
        for v in Bot.objects.filter(owner=owner, name=name).values_list("version", flat=True)
        if v.isdigit()
    ]
    return str(max(numbers, default=0) + 1)


def upload_version(owner, upload, *, description: str = "") -> Bot:
    """Store the uploaded zip as the next version of its owner's bot (named by its manifest),
    status `validating`, and have a worker validate it once the row is committed."""
    data = read_upload(upload)
    contents = check_bundle(data)
    name = contents.manifest.name
    with transaction.atomic():
        # One upload at a time per owner: two at once must not both take the same number.
        get_user_model().objects.select_for_update().filter(pk=owner.pk).first()
        busy = Bot.objects.filter(owner=owner, status=Bot.Status.VALIDATING).count()
        if busy >= settings.TRUCO_MAX_VALIDATING_PER_USER:
            raise ValidationError(
                {
                    "bundle": f"you have {busy} versions being validated: upload again once they "
                    "are decided (seconds)"
                }
            )
        clash = Bot.objects.filter(owner=owner, name=name).exclude(kind=Bot.Kind.BUNDLE)
        if clash.exists():
            raise ValidationError(
                {"bundle": f"you have a plugin bot named {name!r}: give the bundle another name"}
            )
        bot = Bot(
            owner=owner,
            name=name,
            kind=Bot.Kind.BUNDLE,
            version=next_version(owner, name),
            description=description or contents.manifest.description,
            status=Bot.Status.VALIDATING,
            sha256=contents.sha256,
            size=contents.size,
            manifest=contents.manifest.as_json(),
        )
        bot.bundle.save(f"{name}.zip", ContentFile(data), save=False)
        bot.save()
        transaction.on_commit(lambda: publish_validation(bot.pk))
    return bot


def publish_validation(bot_id: int) -> None:
    """Queue the smoke match of a new version for a worker."""
    validate_bot.apply_async(kwargs={"bot_id": bot_id})
