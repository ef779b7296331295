"""The site as a whole (website/apps.py)."""
