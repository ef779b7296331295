"""One event loop a process, in a thread of its own, for synchronous code that talks to the table
hosts over the channel layer (tables/routing.py): a REST request in gunicorn's threads, a page's
form, a Celery task.

`async_to_sync`, called where no event loop runs, makes a new loop for each call, and channels_redis
keeps its Redis connections per loop: every REST action opened a Redis connection and, on the
pub/sub layer, subscribed anew (with 100 people playing through the API an action took 230 ms of
server time at p50). This loop lives as long as the process, and its connections with it.

Code that runs under an event loop already (a sync view of the ASGI server, through
`sync_to_async`) goes to that loop, as `async_to_sync` does; so does the in-memory layer of the
embedded default, whose queues belong to the loop of the one process that serves and hosts.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

T = TypeVar("T")
log = logging.getLogger(__name__)

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None
_thread: threading.Thread | None = None
_pid: int | None = None


def process_loop() -> asyncio.AbstractEventLoop:
    """The process's loop, started on first use. A forked child (gunicorn's workers) has not the
    parent's thread, so it starts its own."""
    global _loop, _thread, _pid
    with _lock:
        if _loop is None or _pid != os.getpid() or _loop.is_closed():
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="table calls", daemon=True)
            thread.start()
            _loop, _thread, _pid = loop, thread, os.getpid()
        return _loop


def stop() -> None:
    """Stop this process's loop, its tasks cancelled (the reader of replies among them), if it
    runs. The next call starts a new one. For code that changes the channel layer under a
    running process (tests): the old loop would go on reading the old layer's channels."""
    global _loop, _thread
    with _lock:
        loop, thread = _loop, _thread
        _loop = _thread = None
        if loop is None or _pid != os.getpid() or loop.is_closed():
            return

        async def cancel_the_rest() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        try:
            asyncio.run_coroutine_threadsafe(cancel_the_rest(), loop).result(10)
        except TimeoutError:
            # A task slow to end (a Redis read winding down on a busy machine): the loop is
            # stopped all the same, what is left of its tasks dropped with it.
            log.warning("the table calls' loop stops with tasks still ending")
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        if not thread.is_alive():
            loop.close()


def under_an_event_loop() -> bool:
    """Whether this thread runs for an event loop of this process (asgiref's sync_to_async)."""
    local = SyncToAsync.threadlocal
    return (
        getattr(local, "main_event_loop_pid", None) == os.getpid()
        and getattr(local, "main_event_loop", None) is not None
    )


def call(function: Callable[..., Awaitable[T]], *args: Any, **kwargs: Any) -> T:
    """`await function(*args, **kwargs)` from synchronous code, on the process's loop."""
    if under_an_event_loop() or isinstance(get_channel_layer(), InMemoryChannelLayer):
        return async_to_sync(function)(*args, **kwargs)
    return asyncio.run_coroutine_threadsafe(function(*args, **kwargs), process_loop()).result()
