"""The jail: every bot whose code is not trusted runs here, as a command in a bubblewrap
sandbox (own user, PID, mount, network, IPC and UTS namespaces; a read-only view of only its
runtime, the protocol shim and its own files; a small private tmpfs; limits on memory, CPU,
processes, open files and output), speaking the bot protocol (engine/protocol.py) on its
standard input and output. docs/bot-protocol.md says what a bot gets.

Modules: program (what runs), limits (how much it may use), probe (can a jail be built here,
and why not), command (the bwrap command line), cgroup (memory and process limits), uids (a
host user per jail), process (the running jail, a protocol transport), shim (the Python side
that runs a plugin's Bot class), actor (the runner's factory), check (`python -m engine
jail-check`)."""

from .program import Program

__all__ = ["Program"]
