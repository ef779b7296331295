"""A hostile team for 2 vs 2: both seats run this, each in its own jail, with this folder bound
read-only in both. At its first decision of every hand a seat shows its partner its three cards
(and the hand's number) through each channel below; at every decision it reads what its partner
shows, and logs one line per channel on standard error:

    GUESS <channel> game <g> hand <h> seat <s>: <card> <card> <card>
    GUESS <channel> game <g> hand <h> seat <s>: nothing (<why>)

tests/jail/test_partner_channels.py compares each guess with the partner's cards in the game's
record: the jail holds when no guess is right. Channels (each a group of files in signals/):
- flock: seat s holds a shared flock() on signals/flock-s<s>-<bit> for every 1 bit;
- posix: a fcntl() record lock on byte <bit> of signals/posix-s<s>;
- ofd: an open-file-description lock on byte <bit> of signals/ofd-s<s>;
- inotify: the reader watches signals/ for files opened; the seat opens notify-s<s>-begin,
  notify-s<s>-<bit> for every 1 bit, then notify-s<s>-end.
The bits: 4 of rank and 2 of suit per card, then the hand's number modulo 4 (20 bits).
"""

import ctypes
import errno
import fcntl
import json
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SIGNALS = os.path.join(HERE, "signals")
RANKS = "A23456789TJQK"
SUITS = "cdhs"
BITS = 20
CHANNELS = ("flock", "posix", "ofd", "inotify")
IN_OPEN = 0x20
F_OFD_GETLK, F_OFD_SETLK = 36, 37

libc = ctypes.CDLL(None, use_errno=True)


def encode(cards, hand_no):
    value = 0
    for card in sorted(cards):
        value = value << 6 | RANKS.index(card[0]) << 2 | SUITS.index(card[1])
    return [(value << 2 | hand_no % 4) >> (BITS - 1 - i) & 1 for i in range(BITS)]


def decode(bits, hand_no):
    value = 0
    for bit in bits:
        value = value << 1 | bit
    if value & 3 != hand_no % 4:
        return None  # not this hand's (its partner has not shown it yet)
    value >>= 2
    cards = []
    for _ in range(3):
        rank, suit = value >> 2 & 15, value & 3
        if rank >= len(RANKS):
            return None
        cards.append(RANKS[rank] + SUITS[suit])
        value >>= 6
    if len(set(cards)) < 3:
        return None  # no signal at all (every bit 0), or a garbled one
    return sorted(cards)


def path(name):
    return os.path.join(SIGNALS, name)


def lock_struct(kind, start):
    # struct flock: l_type, l_whence, l_start, l_len, l_pid (and padding)
    return struct.pack("hhqqi4x", kind, os.SEEK_SET, start, 1, 0)


class Channels:
    def __init__(self):
        self.held = []  # descriptors whose locks are the current signal
        self.notify = libc.inotify_init1(os.O_NONBLOCK)
        self.notify_error = errno.errorcode.get(ctypes.get_errno(), "?")
        if self.notify >= 0:
            libc.inotify_add_watch(self.notify, SIGNALS.encode(), IN_OPEN)
        self.opened = []  # names of files opened in signals/, in order

    # --- showing -------------------------------------------------------------------------
    def show(self, seat, bits):
        for fd in self.held:
            os.close(fd)
        self.held = []
        for channel, show in (
            ("flock", self._show_flock),
            ("posix", self._show_posix),
            ("ofd", self._show_ofd),
            ("inotify", self._show_inotify),
        ):
            try:
                show(seat, bits)
            except OSError as exc:
                log(f"SHOW {channel} refused: {errno.errorcode.get(exc.errno, exc.errno)}")

    def _show_flock(self, seat, bits):
        for i, bit in enumerate(bits):
            if bit:
                fd = os.open(path(f"flock-s{seat}-{i:02d}"), os.O_RDONLY)
                self.held.append(fd)
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)

    def _show_posix(self, seat, bits):
        fd = os.open(path(f"posix-s{seat}"), os.O_RDONLY)
        self.held.append(fd)
        for i, bit in enumerate(bits):
            if bit:
                fcntl.fcntl(fd, fcntl.F_SETLK, lock_struct(fcntl.F_RDLCK, i))

    def _show_ofd(self, seat, bits):
        fd = os.open(path(f"ofd-s{seat}"), os.O_RDONLY)
        self.held.append(fd)
        for i, bit in enumerate(bits):
            if bit:
                fcntl.fcntl(fd, F_OFD_SETLK, lock_struct(fcntl.F_RDLCK, i))

    def _show_inotify(self, seat, bits):
        names = [f"notify-s{seat}-begin"]
        names += [f"notify-s{seat}-{i:02d}" for i, bit in enumerate(bits) if bit]
        for name in [*names, f"notify-s{seat}-end"]:
            os.close(os.open(path(name), os.O_RDONLY))

    # --- reading -------------------------------------------------------------------------
    def read(self, channel, seat):
        """The partner's bits as this channel shows them, or a string saying why not."""
        try:
            return getattr(self, f"_read_{channel}")(seat)
        except OSError as exc:
            return f"refused: {errno.errorcode.get(exc.errno, exc.errno)}"

    def _read_flock(self, seat):
        bits = []
        for i in range(BITS):
            fd = os.open(path(f"flock-s{seat}-{i:02d}"), os.O_RDONLY)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                bits.append(0)
            except BlockingIOError:
                bits.append(1)
            finally:
                os.close(fd)
        return bits

    def _read_locks(self, name, command):
        fd = os.open(path(name), os.O_RDONLY)
        try:
            bits = []
            for i in range(BITS):
                found = fcntl.fcntl(fd, command, lock_struct(fcntl.F_WRLCK, i))
                bits.append(int(struct.unpack("hhqqi4x", found)[0] != fcntl.F_UNLCK))
            return bits
        finally:
            os.close(fd)

    def _read_posix(self, seat):
        return self._read_locks(f"posix-s{seat}", fcntl.F_GETLK)

    def _read_ofd(self, seat):
        return self._read_locks(f"ofd-s{seat}", F_OFD_GETLK)

    def _read_inotify(self, seat):
        if self.notify < 0:
            return f"refused: {self.notify_error}"
        while True:
            try:
                data = os.read(self.notify, 1 << 16)
            except BlockingIOError:
                break
            at = 0
            while at < len(data):
                _, _, _, size = struct.unpack_from("iIII", data, at)
                self.opened.append(data[at + 16 : at + 16 + size].rstrip(b"\0").decode())
                at += 16 + size
        prefix = f"notify-s{seat}-"
        mine = [name[len(prefix) :] for name in self.opened if name.startswith(prefix)]
        if "end" not in mine:
            return "nothing shown"
        end = len(mine) - 1 - mine[::-1].index("end")
        begin = end - 1 - mine[end - 1 :: -1].index("begin")
        ones = {int(n) for n in mine[begin + 1 : end]}
        return [int(i in ones) for i in range(BITS)]


def log(text):
    print(text, file=sys.stderr, flush=True)


def main():
    channels = Channels()
    game = seat = None
    shown = None  # the hand this seat last showed
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "game":
            game, seat, shown = message["game"], message["seat"], None
        elif kind == "act":
            view = message["observation"]
            hand_no = view["hand_no"]
            # A blind iron hand (docs/rules.md: mão de ferro, both teams on 11) hides a seat's own
            # cards from it ("#0"): it has nothing to show. Whether a game gets there is chance
            # (the deal), so the bot must not count on it either way.
            known = not any(card.startswith("#") for card in view["hand"])
            if shown != hand_no and len(view["hand"]) == 3 and known:
                channels.show(seat, encode(view["hand"], hand_no))
                shown = hand_no
            partner = (seat + 2) % 4
            for channel in CHANNELS:
                bits = channels.read(channel, partner)
                cards = decode(bits, hand_no) if isinstance(bits, list) else None
                why = bits if isinstance(bits, str) else "no signal for this hand"
                said = " ".join(cards) if cards else f"nothing ({why})"
                log(f"GUESS {channel} game {game} hand {hand_no} seat {seat}: {said}")
            print(json.dumps({"id": message["id"], "action": message["legal"][0]}), flush=True)
        elif kind == "match_end":
            break


if __name__ == "__main__":
    main()
