"""Hot-path queries compiled once per connection: the ORM's own SQL, reused.

Compiling a query is most of what Django's ORM costs on a move. Building
``Room.objects.select_for_update().get(pk=…)`` takes about ten times as long
as SQLite takes to run it, and every move made six such queries (three locked
reads, three writes) at about 0.3–0.8 ms each. The few queries every move
makes are compiled here once, from ordinary querysets and model fields, and
then run again with new parameters. The rows come back through the same
converters, ``Model.from_db`` and select-related populators as the ORM's own,
and the writes send the same values as ``save()``. Only the compiling is
skipped.

    >>> lock_room = PreparedSelect(lambda pk: Room.objects.select_for_update().filter(pk=pk))
    >>> room = lock_room.first(42)              # SELECT … WHERE id = 42 FOR UPDATE
    >>> save_fields(room, ["version"])          # UPDATE … SET version = … WHERE id = 42
    >>> insert(Move(round=rnd, seq=1, ...))     # INSERT … (the new pk is set on the object)

Compiled SQL is kept per database connection object (each thread has its own),
because the converters a compiler hands out belong to its connection.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators

M = TypeVar("M", bound=Model)

#: The stand-in parameter a query is compiled with; its place in the compiled
#: parameters is where each call's value goes. Positive and within 32 bits, as
#: the ORM refuses to compile a value out of an integer column's range.
_SENTINEL = 1_999_999_973


class _Compiled:
    """One compiled select: its SQL, where the parameter goes, and how rows become
    model instances (as `django.db.models.query.ModelIterable` does it)."""

    def __init__(self, queryset: QuerySet, alias: str) -> None:
        compiler = queryset.query.get_compiler(using=alias)
        sql, params = compiler.as_sql()
        slots = [i for i, value in enumerate(params) if value == _SENTINEL]
        if len(slots) != 1:
            raise ValueError(f"a prepared query takes exactly one parameter, not {len(slots)}")
        self.sql, self.params, self.slot = sql, list(params), slots[0]
        self.compiler = compiler
        select, klass_info = compiler.select, compiler.klass_info
        assert klass_info is not None
        self.model = klass_info["model"]
        fields = klass_info["select_fields"]
        self.start, self.end = fields[0], fields[-1] + 1
        self.init_list = [column[0].target.attname for column in select[self.start : self.end]]
        # (django-stubs describes a later Django, with a fetch_mode argument.)
        self.populators = get_related_populators(klass_info, select, alias)  # type: ignore[call-arg]
        self.converters = compiler.get_converters([s[0] for s in select[: compiler.col_count]])


class PreparedSelect(Generic[M]):
    """A queryset of one parameter, compiled once per connection.

    ``build(value)`` returns the queryset for ``value``; it is called once per
    connection, with a stand-in value, and must use the value exactly once.
    """

    def __init__(self, build: Callable[[Any], QuerySet[M]], using: str = "default") -> None:
        self.build = build
        self.using = using
        self._compiled: weakref.WeakKeyDictionary[Any, _Compiled] = weakref.WeakKeyDictionary()

    def all(self, value: Any) -> list[M]:
        """The rows for ``value``, as the queryset would return them."""
        connection = connections[self.using]
        compiled = self._compiled.get(connection)
        if compiled is None:
            compiled = self._compiled[connection] = _Compiled(self.build(_SENTINEL), self.using)
        params = list(compiled.params)
        params[compiled.slot] = value
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            rows: Any = cursor.fetchall()
        if compiled.converters:
            rows = compiled.compiler.apply_converters(rows, compiled.converters)
        objects = []
        for row in rows:
            obj = compiled.model.from_db(
                self.using, compiled.init_list, row[compiled.start : compiled.end]
            )
            for populator in compiled.populators:
                populator.populate(row, obj)
            objects.append(obj)
        return objects

    def first(self, value: Any) -> M | None:
        rows = self.all(value)
        return rows[0] if rows else None


_update_sql: dict[tuple[Any, ...], str] = {}
_insert_sql: dict[tuple[Any, ...], str] = {}


def save_fields(obj: Model, names: Sequence[str], using: str = "default") -> None:
    """``obj.save(update_fields=names)`` with the statement built once: the same
    values (``pre_save``, ``get_db_prep_save``) reach the same columns."""
    connection = connections[using]
    meta = obj._meta
    fields = [meta.get_field(name) for name in names]
    key = (connection.vendor, meta.label, tuple(names))
    sql = _update_sql.get(key)
    if sql is None:
        quote = connection.ops.quote_name
        sets = ", ".join(f"{quote(_column(f))} = %s" for f in fields)
        where = quote(_column(meta.pk))
        sql = _update_sql[key] = f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {where} = %s"
    params = [f.get_db_prep_save(f.pre_save(obj, False), connection) for f in fields]  # type: ignore[union-attr]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, obj.pk])


def insert(obj: Model, using: str = "default") -> None:
    """``obj.save()`` of a new row with an automatic primary key, with the
    statement built once; sets ``obj.pk``."""
    connection = connections[using]
    meta = obj._meta
    pk = meta.pk
    assert pk is not None
    fields = [f for f in meta.concrete_fields if f is not pk]
    returning = connection.features.can_return_columns_from_insert
    key = (connection.vendor, meta.label, returning)
    sql = _insert_sql.get(key)
    if sql is None:
        quote = connection.ops.quote_name
        columns = ", ".join(quote(_column(f)) for f in fields)
        values = ", ".join("%s" for _ in fields)
        sql = f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({values})"
        if returning:
            sql += f" RETURNING {quote(_column(pk))}"
        _insert_sql[key] = sql
    params = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        new_pk = cursor.fetchone()[0] if returning else cursor.lastrowid
    obj.pk = new_pk
    obj._state.adding = False
    obj._state.db = using


def _column(field: Any) -> str:
    """A concrete field's column name."""
    column = field.column
    assert isinstance(column, str), f"{field} has no column"
    return column
