"""The production password hasher at a test's cost. Django's PBKDF2 runs a million rounds, about
half a second per password on a small machine: every user a test makes and every login paid
that. The hashes are the same algorithm (`pbkdf2_sha256$1000$...`), so a live web server or a
worker started by a test, which uses the real settings, still verifies them."""

from __future__ import annotations

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class FastPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    iterations = 1000
