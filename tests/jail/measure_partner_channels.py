"""How many bits two jails can still pass each other through what no jail separates: the page
cache of the system files both read (a page a jail has read is fast to read again for the other)
and the host's count of threads (`/proc/loadavg`, also `sysinfo()`). The runner's requests set
the order, as the turns of a 2 vs 2 game do: the reader takes its baseline, the other shows its
bits, the reader reads them.

    python -m tests.jail.measure_partner_channels [--rounds N]

prints, per channel, the bits passed and how many came out right. A measurement, not a test:
its figures depend on the machine and on what else runs on it (docs/security.md quotes them).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import textwrap
import time

from engine.jail.process import JailedProcess

PYTHON = os.path.realpath(sys.executable)
RUNTIME = () if sys.base_prefix.startswith("/usr/") else (os.path.realpath(sys.base_prefix),)
PAGE_BITS = 64  # pages per round of the page-cache channel
FAST_NS = 20_000  # a read faster than this was served from the page cache

BOT = textwrap.dedent(
    r"""
    import json, os, sys, threading, time
    held = []
    def threads():
        with open("/proc/loadavg") as f:
            return int(f.read().split()[3].split("/")[1])
    def reply(value):
        print(json.dumps({"action": value}), flush=True)
    for line in sys.stdin:
        m = json.loads(line)
        if m["do"] == "read pages":  # the reader: how long each page takes
            fd = os.open(m["file"], os.O_RDONLY)
            out = []
            for page in m["pages"]:
                start = time.perf_counter_ns()
                os.pread(fd, 1, page << 12)
                out.append(time.perf_counter_ns() - start)
            os.close(fd)
            reply(out)
        elif m["do"] == "show pages":  # the other: reads the pages of its 1 bits
            fd = os.open(m["file"], os.O_RDONLY)
            for page in m["pages"]:
                os.pread(fd, 1, page << 12)
            os.close(fd)
            reply("shown")
        elif m["do"] == "count threads":
            reply(threads())
        elif m["do"] == "show threads":  # 1: hold 32 sleeping threads; 0: none
            for event, thread in held:
                event.set()
                thread.join()
            held[:] = []
            for _ in range(32 if m["bit"] else 0):
                event = threading.Event()
                thread = threading.Thread(target=event.wait, daemon=True)
                thread.start()
                held.append((event, thread))
            reply("shown")
    """
)


def largest_system_file() -> str:
    best, size = "", 0
    for top in ("/usr/lib", "/usr/share"):
        for folder, _, names in os.walk(top):
            for name in names:
                path = os.path.join(folder, name)
                try:
                    if not os.path.islink(path) and os.path.getsize(path) > size:
                        best, size = path, os.path.getsize(path)
                except OSError:
                    continue
    return best


def page_cache(reader, shower, rounds: int, rng: random.Random) -> tuple[int, int]:
    path = largest_system_file()
    pages = os.path.getsize(path) >> 12
    # Pages far apart (past any read-ahead), each used once: a page read once stays cached (so
    # each run starts at a page of its own, and one run after another finds fewer fresh pages).
    phase = rng.randrange(64)
    unused = rng.sample(range(phase, pages, 64), min(pages // 64, rounds * PAGE_BITS))
    right = total = 0
    for start in range(0, len(unused) - PAGE_BITS + 1, PAGE_BITS):
        slots = unused[start : start + PAGE_BITS]
        bits = [rng.randrange(2) for _ in slots]
        shown = [page for page, bit in zip(slots, bits, strict=True) if bit]
        shower.request({"do": "show pages", "file": path, "pages": shown}, 30.0)
        took = reader.request({"do": "read pages", "file": path, "pages": slots}, 30.0)["action"]
        right += sum((ns < FAST_NS) == bool(bit) for ns, bit in zip(took, bits, strict=True))
        total += len(bits)
    return right, total


def thread_count(reader, shower, rounds: int, rng: random.Random) -> tuple[int, int]:
    right = 0
    shower.request({"do": "show threads", "bit": 0}, 10.0)
    for _ in range(rounds):
        bit = rng.randrange(2)
        before = reader.request({"do": "count threads"}, 10.0)["action"]
        shower.request({"do": "show threads", "bit": bit}, 10.0)
        after = reader.request({"do": "count threads"}, 10.0)["action"]
        right += (after - before >= 16) == bool(bit)
        shower.request({"do": "show threads", "bit": 0}, 10.0)
    return right, rounds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()
    rng = random.Random()  # other pages each run: the ones read before are cached now
    reader = JailedProcess([PYTHON, "-I", "-S", "-c", BOT], binds=RUNTIME)
    shower = JailedProcess([PYTHON, "-I", "-S", "-c", BOT], binds=RUNTIME)
    try:
        for name, measure in (("page cache, by timing", page_cache), ("threads", thread_count)):
            started = time.perf_counter()
            right, total = measure(reader, shower, args.rounds, rng)
            seconds = time.perf_counter() - started
            print(
                f"{name:24} {total:5} bits passed, {right:5} right ({right / max(total, 1):.0%}),"
                f" {total / seconds:8.0f} bits/s"
            )
    finally:
        reader.close()
        shower.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
