"""What every app's REST API shares (Django REST framework, not an app: no models): errors as
400s with a message, bounded parsers and pages, the generic permissions, the schema's settings,
the base view mixin, and the extension points through which a higher app adds fields to a lower
app's serializers. The API's root (/api/) is assembled in config/api_urls.py."""
