"""Moving a model's state from one app to another, keeping its database table: the content type
follows, so that the admin's history and any permission given on it carry over."""


def relabel_content_types(moves):
    """A RunPython function: for each (model, from_label, to_label), the content type of
    `from_label.model` becomes `to_label.model` (unless the new one exists already)."""

    def forwards(apps, schema_editor):
        ContentType = apps.get_model("contenttypes", "ContentType")
        for model, old, new in moves:
            if ContentType.objects.filter(app_label=new, model=model).exists():
                continue
            ContentType.objects.filter(app_label=old, model=model).update(app_label=new)

    def backwards(apps, schema_editor):
        ContentType = apps.get_model("contenttypes", "ContentType")
        for model, old, new in moves:
            if ContentType.objects.filter(app_label=old, model=model).exists():
                continue
            ContentType.objects.filter(app_label=new, model=model).update(app_label=old)

    return forwards, backwards
