"""The "My bots" page: upload a bundle (a new version of one of your bots), see every version
with its status, why it was rejected, its smoke match and its log (yours only), and retire a
version. While a version is validating the page reloads itself every two seconds."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from submitted_bots.bundles.limits import server_limits
from submitted_bots.bundles.uploads import upload_version
from submitted_bots.models import Bot

REFRESH_SECONDS = 2
# How each way a smoke-match game ended reads on the page ("normal 2" told nobody anything).
ENDINGS = {
    "normal": "played to the end",
    "timeout": "lost on time",
    "crash": "the bot crashed",
    "illegal_action": "an illegal answer",
}


def smoke_lines(bot: Bot) -> list[dict]:
    """The smoke match, one line per game setting, in words."""
    lines = []
    for setting in (bot.validation or {}).get("settings", []):
        endings = [
            {"kind": kind, "count": n, "words": ENDINGS.get(kind, kind.replace("_", " "))}
            for kind, n in (setting.get("terminations") or {}).items()
        ]
        lines.append({**setting, "endings": endings})
    return lines


def my_bots_context(request) -> dict:
    """What the page shows of the user's own bots; higher apps add what they know (the
    website adds the notices and the tournaments open for entries)."""
    versions = list(
        Bot.objects.filter(owner=request.user)
        .select_related("owner", "player")
        .prefetch_related("player__ratings")
        .order_by("name", "-id")
    )
    bots: dict[str, list[Bot]] = {}
    for bot in versions:
        bot.smoke = smoke_lines(bot)
        bot.manifest_description = (bot.manifest or {}).get("description", "")
        bots.setdefault(bot.name, []).append(bot)
    return {
        "bots": bots,
        "limits": server_limits().describe(),
        "refresh": REFRESH_SECONDS
        if any(b.status == Bot.Status.VALIDATING for b in versions)
        else None,
    }


@login_required(login_url="web:login")
def my_bots(request, extra_context=None):
    if request.method == "POST":
        return upload(request)
    context = my_bots_context(request)
    if extra_context is not None:
        context.update(extra_context(request))
    return render(request, "submitted_bots/my_bots.html", context)


def upload(request):
    files = request.FILES
    if set(files) - {"bundle"} or "bundle" not in files:
        messages.error(request, "Choose a bundle zip to upload.")
        return redirect("web:my-bots")
    try:
        bot = upload_version(
            request.user, files["bundle"], description=request.POST.get("description", "")[:2000]
        )
    except ValidationError as exc:
        messages.error(request, "Upload refused: " + " ".join(exc.messages))
        return redirect("web:my-bots")
    messages.success(request, f"{bot.label} uploaded: it is being validated.")
    return redirect("web:my-bots")


@login_required(login_url="web:login")
@require_POST
def retire(request, pk: int):
    bot = get_object_or_404(Bot, pk=pk, owner=request.user)
    Bot.objects.filter(pk=bot.pk).update(status=Bot.Status.RETIRED, is_active=False)
    messages.success(request, f"{bot.label} is retired.")
    return redirect("web:my-bots")
