from django.apps import AppConfig


class StackConfig(AppConfig):
    """The processes of the embedded stack (workers, the web server, their supervision and
    health, the embedded broker): it knows processes and Celery, never tournaments or tables."""

    name = "stack"
    label = "stack"
