"""`/healthz`: 200 when the database answers, 503 otherwise (docker-compose health checks)."""

from django.db import DatabaseError, connection
from django.http import JsonResponse


def healthz(request):
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError as exc:
        return JsonResponse({"status": "error", "database": str(exc)}, status=503)
    return JsonResponse({"status": "ok"})
