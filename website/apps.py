from django.apps import AppConfig


class WebsiteConfig(AppConfig):
    """The site as a whole: its base page and style, the pages that span the apps (ratings, a
    user's page, accounts), the URL namespace that gathers every app's pages, and the commands
    that run the whole site (demo, soak). The top layer: it uses every app; none uses it."""

    name = "website"
    label = "website"
