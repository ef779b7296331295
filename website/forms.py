"""The sign-up form: Django's, with the passwords kept when another field is wrong (a
mistyped username must not cost the visitor both passwords again)."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm


class SignupForm(UserCreationForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("password1", "password2"):
            field = self.fields[name]
            field.widget = forms.PasswordInput(
                attrs={**field.widget.attrs, "autocomplete": "new-password"}, render_value=True
            )
        self.fields["username"].widget.attrs.setdefault("autocomplete", "username")
