"""Uploaded bot bundles on the server (docs/bots.md): storing each upload as a new version
(`uploads`), unpacking it for the jail (`files`), validating it by a smoke match in a worker
(`validation`), and bundles the operator names on the command line (`operator`).

Uploaded code is never imported or run here: the web process only reads the zip's bytes to check
them; the worker unpacks it and runs it in the jail."""
