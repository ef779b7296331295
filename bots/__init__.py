"""The built-in bot strategies, each a plugin registered through the `truco` entry points."""
