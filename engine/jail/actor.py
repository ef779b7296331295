"""The runner's factory for `isolation="jail"` (registered in engine/seats.py): a seat's
`ProtocolBot` over a jailed process, kept for the match.

A `Program` runs as given, with its files at /bot. A registered plugin bot runs through the
Python shim (engine/jail/shim.py): the jail then sees the Python that runs it, the engine's
source, the top-level packages of the installed plugins (the bot may use the variants' rules)
and site-packages, all read-only; never the project's settings or anything else of the server.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import sys
import sysconfig

from ..errors import PluginError
from ..plugins import plugin_manager, registry
from ..protocol import ProtocolBot, match_message
from ..seats import MatchContext
from .command import BOT_DIR
from .limits import DEFAULT, Limits
from .probe import availability, unsafe_unjailed
from .process import JailedProcess

# Puts the folders named first on sys.path, then runs the shim for MODULE QUALNAME.
_BOOT = (
    "import sys; n = int(sys.argv[1]); sys.path[:0] = sys.argv[2:2 + n]; "
    "from engine.jail.shim import run; raise SystemExit(run(sys.argv[2 + n:]))"
)
ENGINE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def jailed_actor(spec, context: MatchContext) -> ProtocolBot:
    limits: Limits = context.extra.get("limits") or DEFAULT
    if not unsafe_unjailed():
        availability().require()  # refuse before anything starts
    if spec.program is not None:
        command, files, binds = spec.program.command, spec.program.files, spec.program.binds
    else:
        command, binds = shim_command(spec.name)
        files = None
    match = match_message(
        bot=spec.name,
        params=spec.params,
        variant=context.variant,
        options=context.options,
        players=context.players,
        decision_seconds=context.decision_seconds,
        limits=limits.to_dict(),
    )

    def connect() -> JailedProcess:
        return JailedProcess(command, files=files, binds=binds, limits=limits)

    return ProtocolBot(connect, match, decision_seconds=context.decision_seconds)


def bundle_shim_command(module: str, qualname: str) -> tuple[list[str], tuple[str, ...]]:
    """(command, read-only binds) that run a Python bundle's Bot class `module:qualname`
    through the shim: the bundle's folder /bot first on sys.path, then the engine's view (its
    module is the bundle's, never looked for on the host)."""
    paths, binds = python_view("engine")
    paths = (BOT_DIR, *paths)
    python = os.path.realpath(sys.executable)
    command = [python, "-I", "-S", "-B", "-c", _BOOT, str(len(paths)), *paths, module, qualname]
    return command, binds


def shim_command(name: str) -> tuple[list[str], tuple[str, ...]]:
    """(command, read-only binds) that run the registered bot `name` through the shim."""
    factory = registry().bot(name)
    module = getattr(factory, "__module__", None)
    qualname = getattr(factory, "__qualname__", "")
    if not module or not qualname or "<" in qualname:
        raise PluginError(f"bot {name!r} cannot run in the jail: its class is not importable")
    paths, binds = python_view(module)
    python = os.path.realpath(sys.executable)
    command = [python, "-I", "-S", "-B", "-c", _BOOT, str(len(paths)), *paths, module, qualname]
    return command, binds


@functools.cache
def _site_dirs() -> tuple[str, ...]:
    """The folders of installed packages this interpreter uses (its own, and any on
    PYTHONPATH): plugins and their dependencies live there."""
    found = []
    candidates = [sysconfig.get_paths().get(key) for key in ("purelib", "platlib")]
    candidates += [p for p in sys.path if os.path.basename(p) in ("site-packages", "dist-packages")]
    for path in candidates:
        if path and os.path.isdir(path) and path not in found:
            found.append(path)
    return tuple(found)


def _location(top: str) -> tuple[str, str] | None:
    """(folder to put on sys.path, path to bind) of top-level module `top`."""
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    if spec.submodule_search_locations:
        folder = list(spec.submodule_search_locations)[0]
        return os.path.dirname(folder), folder
    if spec.origin and os.path.isfile(spec.origin):
        return os.path.dirname(spec.origin), spec.origin
    return None


def _plugin_tops() -> list[str]:
    tops = []
    for _, plugin in plugin_manager().list_name_plugin():
        name = getattr(plugin, "__name__", "")
        if name:
            tops.append(name.split(".")[0])
    return tops


@functools.cache
def _view_of(module: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    runtime = os.path.realpath(sys.base_prefix)
    sites = _site_dirs()
    paths: list[str] = []
    binds: list[str] = [] if runtime.startswith("/usr/") else [runtime]
    settings = os.environ.get("DJANGO_SETTINGS_MODULE", "config.settings").split(".")[0]
    for top in dict.fromkeys(["engine", module.split(".")[0], *_plugin_tops()]):
        if top == settings:
            continue  # the server's settings are never in the jail
        where = _location(top)
        if where is None:
            continue
        folder, bound = where
        if any(bound.startswith(site + os.sep) for site in sites):
            continue  # in site-packages, bound whole below
        if folder not in paths:
            paths.append(folder)
        binds.append(bound)
    for site in sites:
        paths.append(site)
        binds.append(site)
    return tuple(paths), tuple(dict.fromkeys(binds))


def python_view(module: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(sys.path, read-only binds) of the jail that runs the shim for a bot from `module`."""
    return _view_of(module)
