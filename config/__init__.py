"""The Django project: settings from the environment, URLs, and the Celery app."""

from config.celery import app as celery_app

__all__ = ["celery_app"]
