"""The built-in Truco variants, each a plugin registered through the `truco` entry points."""
