"""Writing several rows of one model in one statement, cheaply.

Django's `bulk_update` builds a `CASE WHEN id = ... THEN ...` expression per field and row, and
resolving those expressions costs more CPU than the games of a one-game match (measured with
`bench_stack --profile`: 54 ms a call for two matches). On PostgreSQL this writes
`UPDATE t SET f = v.f, ... FROM UNNEST(%s::bigint[], %s::integer[], ...) AS v (id, f, ...)
WHERE t.id = v.id`, one statement whatever the number of rows, an array a column; elsewhere
(SQLite: the embedded default, one writer at a time) an UPDATE per row."""

from __future__ import annotations

from django.db import connection
from django.utils import timezone

# Values psycopg sends as they are: Django's per-value preparation of these types only checks
# and converts what is already an int, a str, a bool or None (and costs more than the insert).
PLAIN_TYPES = frozenset(
    {
        "AutoField",
        "BigAutoField",
        "BigIntegerField",
        "BooleanField",
        "CharField",
        "ForeignKey",
        "IntegerField",
        "PositiveBigIntegerField",
        "PositiveIntegerField",
        "PositiveSmallIntegerField",
        "SmallIntegerField",
        "TextField",
    }
)


def db_value(field, value):
    """A value as the database adapter takes it: as it is where its type needs nothing (and
    None), else prepared by the field (JSON: a Jsonb; dates)."""
    if value is None or field.get_internal_type() in PLAIN_TYPES:
        return value
    return field.get_db_prep_save(value, connection)


def update_rows(objs: list, fields: list[str], model=None) -> None:
    """Save these fields of these saved model instances (all of one model), or of any objects
    with a `pk` and those attributes (`model` then names their model)."""
    if not objs:
        return
    model = model or type(objs[0])
    meta = model._meta
    concrete = [meta.get_field(name) for name in fields]
    if connection.vendor != "postgresql" or len(objs) == 1:
        for obj in objs:
            values = {f.attname: getattr(obj, f.attname) for f in concrete}
            model._base_manager.filter(pk=obj.pk).update(**values)
        return
    quote = connection.ops.quote_name
    pk = meta.pk
    columns = [pk, *concrete]
    # A column's values go as one array parameter (one placeholder a column, not one a value:
    # psycopg parses and adapts a statement of thousands of placeholders in Python, which cost
    # more than the statement itself).
    arrays = [f"%s::{column.db_type(connection)}[]" for column in columns]
    params = [[db_value(pk, obj.pk) for obj in objs]]
    for column in concrete:
        params.append([db_value(column, getattr(obj, column.attname)) for obj in objs])
    names = ", ".join(quote(column.column) for column in columns)
    assignments = ", ".join(f"{quote(f.column)} = v.{quote(f.column)}" for f in concrete)
    table = quote(meta.db_table)
    sql = (
        f"UPDATE {table} SET {assignments} FROM UNNEST({', '.join(arrays)}) "
        f"AS v ({names}) WHERE {table}.{quote(pk.column)} = v.{quote(pk.column)}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def insert_rows(model, rows: list[dict]) -> list[int]:
    """Insert rows of a model given as dicts of attribute names (`round_id`, not `round`) to
    values, the other fields taking their defaults; the new rows' primary keys, in order.

    Django's `bulk_create` builds a model instance a row and prepares every field of every
    row: for a round robin's 120 matches, more than the statement. On PostgreSQL this sends
    `INSERT INTO t (...) SELECT * FROM UNNEST(%s::type[], ...) RETURNING id`, an array a
    column, each value prepared only when its type needs it (JSON, dates); elsewhere
    `bulk_create`."""
    if not rows:
        return []
    meta = model._meta
    if connection.vendor != "postgresql":
        created = model._base_manager.bulk_create([model(**row) for row in rows])
        return [obj.pk for obj in created]
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    quote = connection.ops.quote_name
    arrays, params = [], []
    now = timezone.now()
    for field in fields:
        auto = getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False)
        default = now if auto else field.get_default()
        values = [db_value(field, row.get(field.attname, default)) for row in rows]
        arrays.append(f"%s::{field.db_type(connection)}[]")
        params.append(values)
    columns = ", ".join(quote(field.column) for field in fields)
    sql = (
        f"INSERT INTO {quote(meta.db_table)} ({columns}) SELECT * FROM UNNEST({', '.join(arrays)})"
        f" RETURNING {quote(meta.pk.column)}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [pk for (pk,) in cursor.fetchall()]
