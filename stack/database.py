"""The state of the database's schema, for the commands: the migrations still to apply, and a
clear refusal (exit code 2 and what to run) instead of a "relation does not exist" traceback."""

from __future__ import annotations

from django.core.management.base import CommandError
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BAD_INPUT = 2


def pending_migrations() -> list:
    """The migrations not yet applied to the default database, in the order they would run."""
    executor = MigrationExecutor(connection)
    return [
        migration for migration, _ in executor.migration_plan(executor.loader.graph.leaf_nodes())
    ]


def is_new_database() -> bool:
    """True when no migration at all was applied yet (a database just created, or empty)."""
    return not MigrationExecutor(connection).loader.applied_migrations


def require_migrated() -> None:
    if pending_migrations():
        raise CommandError(
            "the database has unapplied migrations: run `python manage.py migrate` first",
            returncode=BAD_INPUT,
        )


def commit_without_waiting() -> None:
    """Inside a transaction: its commit does not wait for the write-ahead log to reach the
    disk (PostgreSQL's `synchronous_commit = off` for this transaction only; nothing elsewhere).
    For writes that a database crash may undo without harm, such as a match's claim: a claim
    lost is as if never made (the match is claimed again, the attempt that played under it
    records nothing), while the results keep their durable commits. A durable commit waits a
    disk flush, the largest cost of a short match on a busy server."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit TO OFF")
