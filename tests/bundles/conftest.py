from tests.surface import *  # noqa: F401,F403 (shared fixtures)
