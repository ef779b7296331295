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
def truco_register_formats(register):
    """Register tournament formats by calling `register(fmt)` with a `formats.base.Format`
    instance (pure Python: it pairs rounds from results and ranks entrants).

    A format declares what scheduling needs of it, so that nothing elsewhere tests its name:
    `needs_winner` (a drawn match is settled by extra games), `round_by_round` (it pairs a round
    only once the previous one is complete), `expected_matches(n, options)` (for progress) and
    `bracket_layout(n, options)` (its fixed bracket, for display; None for a league). Two plugins
    registering one name make loading fail, naming both.
    """


@hookspec
def truco_game_finished(result):
    """Called after every game the engine's match runner finishes, with its `GameResult`
    (record, score, winner, termination). Observers only: the return value is ignored."""
