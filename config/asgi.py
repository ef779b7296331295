"""ASGI entry point: `uvicorn config.asgi:application` (or daphne). HTTP goes to Django; the
tables' WebSockets (tables/push.py) to Channels' consumers, signed in by the site's session.

Where no shared channel layer is configured (the embedded default: no Redis), the table host
runs inside this process (tables/host.py), started with the server and stopped with it: the
connections and the tables it keeps then reach each other in memory. Running bot matches are
watched on their own sockets (tournaments/watch.py)."""

import asyncio
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.core.asgi import get_asgi_application  # noqa: E402

django_application = get_asgi_application()  # sets Django up before the app code is imported

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from tables.host import TableHost  # noqa: E402
from tables.push import websocket_urls  # noqa: E402
from tournaments.watch import websocket_urls as watch_urls  # noqa: E402


def hosts_in_process() -> bool:
    return settings.TRUCO_TABLES == "hosts" and not settings.CHANNELS_REDIS_URL


async def lifespan(scope, receive, send):
    """The server's start and stop: the in-process table host lives as long as the server."""
    host = task = None
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            if hosts_in_process():
                host = TableHost()
                task = asyncio.create_task(host.serve())
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            if task is not None:
                task.cancel()  # its host stops (TableHost.serve), its tables released
                try:
                    await task
                except asyncio.CancelledError:
                    pass
            await send({"type": "lifespan.shutdown.complete"})
            return


application = ProtocolTypeRouter(
    {
        "http": django_application,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urls + watch_urls))
        ),
        "lifespan": lifespan,
    }
)
