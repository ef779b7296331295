"""A multipart body larger than a bundle may be is refused before anything reads it: a 400 with
the reason, not a gigabyte streamed to a temporary file first (the CSRF check reads the body of
a signed-in form, so the views would see it only after it was all on disk). Bundles are the
only files this site takes."""

from __future__ import annotations

from django.http import JsonResponse

from submitted_bots.bundles.limits import server_limits

# Room for the multipart framing and the form's other fields around the zip.
FORM_MARGIN = 64 * 1024


class BundleUploadLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.content_type == "multipart/form-data":
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            limit = server_limits().max_bundle_bytes
            if length > limit + FORM_MARGIN:
                message = (
                    f"bundle too big: the upload is {length / (1 << 20):.1f} MiB, a bundle is at "
                    f"most {limit >> 20} MiB"
                )
                return JsonResponse({"bundle": [message]}, status=400)
        return self.get_response(request)
