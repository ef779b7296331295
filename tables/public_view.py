"""What a spectator may see of a game: moved to the engine (engine/spectator.py); this name stays
so that the Django side's imports keep working until they import the engine's."""

from engine.spectator import PRIVATE_FIELDS, public_view, replay_frames

__all__ = ["PRIVATE_FIELDS", "public_view", "replay_frames"]
