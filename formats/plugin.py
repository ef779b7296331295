"""The built-in tournament formats, registered through the `truco` entry points exactly like a
third-party format plugin (engine/hookspecs.py `truco_register_formats`)."""

from __future__ import annotations

from engine.hookspecs import hookimpl

from .double_elimination import DoubleElimination
from .round_robin import RoundRobin
from .single_elimination import SingleElimination
from .swiss import Swiss


@hookimpl
def truco_register_formats(register):
    for fmt in (SingleElimination(), DoubleElimination(), RoundRobin(), Swiss()):
        register(fmt)
