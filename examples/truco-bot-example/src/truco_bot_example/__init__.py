"""An example Truco Arena bot plugin (see plugin.py)."""
