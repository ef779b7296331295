"""The bot author's kit: `python -m engine new-bot` writes a working bundle from a template
(`new_bot`), `python -m engine check-bot` runs the server's checks and smoke match on one
(`check_bot`). docs/bots.md is the author's guide."""
