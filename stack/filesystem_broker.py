"""The embedded default's broker: kombu's filesystem transport (one file per message in a
folder under var/), made safe for producers and consumers in several processes at once.

Why: kombu's own `_put` creates the message file (`open(name, "wb")`) and only then writes
it, so a consumer listing the folder in between takes an empty file, and `json.loads("")`
raises `JSONDecodeError` out of the worker's event loop: "Unrecoverable error", the worker is
gone, and the message with it. Its `_get` also moves a taken file to the system temporary
folder, which is a copy (not an atomic rename) when that folder is on another filesystem, so
two consumers may take the same message. The exchange tables of broadcasts (`celery inspect`,
remote control) have the same create-then-write window.

Here every file appears whole: it is written under a hidden name and renamed into place
(`os.replace` is atomic on one filesystem); a consumer takes a message by renaming it into a
`taken` folder next to the queue folder (one rename wins, the others get FileNotFoundError);
and a file that cannot be read as a message (written by some other program, or cut short by a
full disk) is set aside in `rejected/`, logged, and the worker goes on.

Used by `config.settings` when the broker URL is `filesystem://` (CELERY_BROKER_TRANSPORT).
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import uuid
from contextlib import contextmanager
from pathlib import Path
from queue import Empty
from time import monotonic

from kombu.transport import filesystem, virtual
from kombu.utils.json import dumps, loads

log = logging.getLogger(__name__)

TRANSPORT = "stack.filesystem_broker:Transport"


def write_whole(path: Path | str, data: bytes) -> None:
    """Write `data` to `path` so that a reader sees either no file (or the old one) or all of
    it: a hidden temporary file in the same folder, then an atomic rename."""
    path = Path(path)
    temporary = path.with_name(f".{uuid.uuid4().hex}.tmp")
    with open(temporary, "wb") as out:
        out.write(data)
    os.replace(temporary, path)


def is_message_of(filename: str, queue: str) -> bool:
    """Message files are `<ms>_<uuid>.<queue>.msg`; hidden temporary files never match."""
    return not filename.startswith(".") and filename.partition(".")[2] == f"{queue}.msg"


class Channel(filesystem.Channel):
    @property
    def taken_folder(self) -> Path:
        folder = Path(self.data_folder_in).parent / "taken"
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    @property
    def rejected_folder(self) -> Path:
        folder = Path(self.data_folder_in).parent / "rejected"
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    # --- messages ---------------------------------------------------------------------------

    def _put(self, queue, payload, **kwargs):
        name = f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        try:
            write_whole(Path(self.data_folder_out) / name, dumps(payload).encode())
        except OSError as exc:
            raise filesystem.ChannelError(f"Cannot add {name!r} to the queue folder") from exc

    def _get(self, queue):
        folder = Path(self.data_folder_in)
        for filename in sorted(os.listdir(folder)):
            if not is_message_of(filename, queue):
                continue
            taken = self.taken_folder / filename
            try:
                os.rename(folder / filename, taken)  # the one consumer whose rename wins
            except FileNotFoundError:
                continue  # another consumer took it first
            try:
                payload = taken.read_bytes()
                message = loads(payload.decode())
            except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
                self._reject(taken, exc)
                continue
            taken.unlink(missing_ok=True)
            return message
        raise Empty()

    def _reject(self, path: Path, exc: Exception) -> None:
        log.error(
            "broker: %s is not a message (%s); set aside in %s",
            path.name,
            exc,
            self.rejected_folder,
        )
        try:
            os.replace(path, self.rejected_folder / path.name)
        except OSError:
            path.unlink(missing_ok=True)

    def _purge(self, queue):
        count = 0
        folder = Path(self.data_folder_in)
        for filename in os.listdir(folder):
            if is_message_of(filename, queue):
                try:
                    os.remove(folder / filename)
                    count += 1
                except FileNotFoundError:
                    pass  # a consumer took it meanwhile
        return count

    def _size(self, queue):
        return sum(1 for f in os.listdir(self.data_folder_in) if is_message_of(f, queue))

    # --- exchange tables (broadcasts: remote control, inspection) -----------------------------

    @contextmanager
    def _table_lock(self, exchange):
        """One writer of an exchange's table at a time (readers need no lock: every version
        of the file is whole)."""
        self.control_folder.mkdir(parents=True, exist_ok=True)
        path = self.control_folder / f".{self._exchange_file(exchange).name}.lock"
        with open(path, "a") as lock_file:
            fcntl.flock(lock_file.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock_file.fileno(), fcntl.LOCK_UN)

    def _read_table(self, exchange) -> list:
        try:
            return [
                filesystem.exchange_queue_t(*q)
                for q in loads(self._exchange_file(exchange).read_text() or "[]")
            ]
        except FileNotFoundError:
            return []

    def get_table(self, exchange):
        return self._read_table(exchange)

    def _queue_bind(self, exchange, routing_key, pattern, queue):
        binding = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        with self._table_lock(exchange):
            table = self._read_table(exchange)
            if binding not in table:
                table.insert(0, binding)
                write_whole(self._exchange_file(exchange), dumps(table).encode())

    def queue_bind(self, queue, exchange=None, routing_key="", arguments=None, **kwargs):
        """Bind, and make sure the binding is in the exchange's table on disk.

        Why: the transport's broker state is process-wide (kombu's `global_state`), and kombu
        writes the table file only for a binding that state has not seen. A process that
        bound a queue once, and then finds the table file gone (the broker folder wiped while
        it ran, or another folder in the same process), would route every message it
        publishes to no queue: dropped, silently."""
        super().queue_bind(queue, exchange, routing_key, arguments, **kwargs)
        exchange = exchange or "amq.direct"
        binding = self.typeof(exchange).prepare_bind(queue, exchange, routing_key, arguments)
        self._queue_bind(exchange, *binding)

    def _delete(self, queue, exchange, routing_key, pattern, *args, **kwargs):
        virtual.Channel._delete(self, queue, exchange, routing_key, pattern, *args, **kwargs)
        binding = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        with self._table_lock(exchange):
            table = self._read_table(exchange)
            if binding in table:
                table.remove(binding)
                write_whole(self._exchange_file(exchange), dumps(table).encode())


class Transport(filesystem.Transport):
    Channel = Channel
    global_state = virtual.BrokerState()  # this transport's own, like kombu's
