"""What someone locked out after too many wrong passwords sees (django-axes calls this, see
AXES_LOCKOUT_CALLABLE): a 429 that says so and for how long, as JSON for the API and as a
page for the login forms."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render


def lockout_message() -> str:
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return (
        f"too many wrong passwords for this account from your address: wait {minutes} "
        f"minutes, then try again"
    )


def lockout_response(request, original_response=None, credentials=None) -> HttpResponse:
    retry_after = str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": lockout_message()}, status=429)
    else:
        response = render(
            request,
            "registration/locked_out.html",
            {"message": lockout_message()},
            status=429,
        )
    response["Retry-After"] = retry_after
    return response
