"""The hooks a Truco plugin may implement. A plugin is a module or object registered under the
`truco` entry-point group, e.g. in its pyproject.toml:

    [project.entry-points.truco]
    my_bots = "my_package.plugin"

and in that module:

    from engine.hookspecs import hookimpl

    @hookimpl
    def truco_register_bots(register):
        register("my-bot", MyBot)
"""

from __future__ import annotations

import pluggy

hookspec = pluggy.HookspecMarker("truco")
hookimpl = pluggy.HookimplMarker("truco")


@hookspec
def truco_register_variants(register):
    """Register variants by calling `register(variant)` with an `engine.variant.Variant` instance.

    The variant's `name` is its key everywhere (records, the API, the CLI); two plugins that
    register the same name make loading fail with a message naming both plugins.
    """


@hookspec
def truco_register_bots(register):
    """Register bots by calling `register(name, factory)`.

    `factory(variant=..., options=..., seat=..., players=..., rng=..., **params)` returns an object
    with `act(observation) -> str` (one of `observation.legal`) and, optionally,
    `on_hand_end(observation)` and `on_game_end(observation)`. Usually the factory is a subclass
    of `engine.bot.Bot`. A name registered twice makes loading fail, naming both plugins.
    """


@hookspec
def truco_game_finished(result):
    """Called after every game the engine's match runner finishes, with its `GameResult`
    (record, score, winner, termination). Observers only: the return value is ignored."""
