"""What the site uses of Django beyond its documented API: the few queries of
every move compiled once per connection, the ORM's own SQL reused.

Compiling a query is most of what Django's ORM costs on a move, and every
move makes six (three locked reads, three writes). They are compiled here
once, from ordinary querysets and model fields, and then run again with new
parameters. The rows come back through the same converters,
``Model.from_db`` and select-related populators as the ORM's own, and the
writes send the same values as ``save()``. Only the compiling is skipped. On
PostgreSQL a move's reads go to the server as one message, and its writes as
another (`select_together`, `writes_together`). A sketch (not run: it
needs a room and a round in the database)::

    lock_room = PreparedSelect(lambda pk: Room.objects.select_for_update().filter(pk=pk))
    room = lock_room.first(42)              # SELECT … WHERE id = 42 FOR UPDATE
    save_fields(room, ["version"])          # UPDATE … SET version = … WHERE id = 42
    insert(Move(round=rnd, seq=1, ...))     # INSERT … (the new pk is set on the object)
    rooms, keys = select_together((lock_room, 42), (NextKeys(Move), 1))  # … nextval(…)

It uses, all undocumented:

* ``Query.get_compiler`` and the compiler's ``as_sql``, ``select``,
  ``klass_info``, ``col_count``, ``annotation_col_map``, ``get_converters``
  and ``apply_converters``: how `django.db.models.query.ModelIterable` turns
  rows into instances (`_Compiled`, `PreparedSelect._objects`);
* ``django.db.models.query.get_related_populators``: attaching the
  select-related rows;
* a field's ``column`` and ``get_db_prep_save(pre_save(...))``, and the
  connection's ``in_atomic_block``: what ``save()`` writes, and whether a
  transaction is open.

Compiled SQL is kept per database connection object (each thread has its own),
because the converters a compiler hands out belong to its connection.
tests/infra/test_django.py fails when any of this changes.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import connections, transaction
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators

from domino_site.infra.versions import require

VERSION = require("Django", ("5.2",), module=__name__)

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
        self.annotations = dict(compiler.annotation_col_map or {})


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
        return select_together((self, value), using=self.using)[0]

    def first(self, value: Any) -> M | None:
        rows = self.all(value)
        return rows[0] if rows else None

    def _statement(self, connection: Any, value: Any) -> tuple[_Compiled, str, list[Any]]:
        compiled = self._compiled.get(connection)
        if compiled is None:
            compiled = self._compiled[connection] = _Compiled(self.build(_SENTINEL), self.using)
        params = list(compiled.params)
        params[compiled.slot] = value
        return compiled, compiled.sql, params

    def _objects(self, compiled: _Compiled, rows: Any) -> list[M]:
        if compiled.converters:
            rows = compiled.compiler.apply_converters(rows, compiled.converters)
        objects = []
        for row in rows:
            obj = compiled.model.from_db(
                self.using, compiled.init_list, row[compiled.start : compiled.end]
            )
            for populator in compiled.populators:
                populator.populate(row, obj)
            for name, position in compiled.annotations.items():
                setattr(obj, name, row[position])
            objects.append(obj)
        return objects


class NextKeys:
    """The next automatic primary keys of ``model``'s table, drawn ahead in
    `select_together`'s round trip (the value is how many): a row made with one
    has its key when it is created, and `insert` sends it with the others.

    On PostgreSQL it asks the key's sequence (``nextval``); elsewhere it draws
    nothing, as `insert` there sends a row at once. A sketch (not run)::

        rooms, keys = select_together((lock_room, 42), (NextKeys(Move), 1))
        move = Move(pk=keys[0] if keys else None, ...)
    """

    def __init__(self, model: type[Model]) -> None:
        self.model = model

    def _statement(self, connection: Any, count: Any) -> tuple[None, str, list[Any]]:
        if connection.vendor != "postgresql":
            return None, "", []
        meta = self.model._meta
        sql = "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)"
        return None, sql, [connection.ops.quote_name(meta.db_table), _column(meta.pk), count]

    def _objects(self, compiled: None, rows: Any) -> list[Any]:
        return [row[0] for row in rows]


def select_together(
    *queries: tuple[PreparedSelect[Any] | NextKeys, Any], using: str = "default"
) -> list[list[Any]]:
    """The rows of each ``(query, value)``, in order, as if each ran alone.

    On PostgreSQL the statements go to the server as one message and run one
    after the other there (a lock the first takes is held when the second
    runs): one round trip instead of one each. A sketch (not run)::

        rooms, rounds, seats = select_together((lock_room, 42), (lock_round, 42), (seats_of, 42))
    """
    connection = connections[using]
    statements = [query._statement(connection, value) for query, value in queries]
    sent = [index for index, (_, sql, _) in enumerate(statements) if sql]
    raw: list[list[Any]] = [[] for _ in statements]
    with connection.cursor() as cursor:
        if _one_trip(connection) and len(sent) > 1:
            chosen = [statements[index] for index in sent]
            cursor.execute("; ".join(sql for _, sql, _ in chosen), _joined(chosen))
            for position, index in enumerate(sent):
                if position:
                    cursor.nextset()
                raw[index] = cursor.fetchall()
        else:
            for index in sent:
                _compiled, sql, params = statements[index]
                cursor.execute(sql, params)
                raw[index] = cursor.fetchall()
    return [
        query._objects(compiled, rows)  # type: ignore[arg-type]
        for (query, _), (compiled, _, _), rows in zip(queries, statements, raw, strict=True)
    ]


def _one_trip(connection: Any) -> bool:
    """Whether several statements can go in one message: PostgreSQL with
    psycopg's client-side binding (Django's default: the simple query protocol)."""
    options = connection.settings_dict.get("OPTIONS") or {}
    return connection.vendor == "postgresql" and not options.get("server_side_binding")


def _joined(statements: Sequence[tuple[Any, str, list[Any]]]) -> list[Any]:
    return [param for _, _, params in statements for param in params]


# ---------------------------------------------------------------------- writes


_update_sql: dict[tuple[Any, ...], str] = {}
_insert_sql: dict[tuple[Any, ...], str] = {}


@dataclass
class _Write:
    """One statement to send; ``keyed`` is the new row of an insert, whose key
    comes back (RETURNING, or the cursor's ``lastrowid`` where there is none)."""

    sql: str
    params: list[Any]
    keyed: Model | None = None
    returning: bool = True


#: The writes held back on each connection inside `writes_together`.
_held: weakref.WeakKeyDictionary[Any, list[_Write]] = weakref.WeakKeyDictionary()


@contextlib.contextmanager
def atomic_together(using: str = "default") -> Iterator[None]:
    """``transaction.atomic()`` with its writes held (`writes_together`): a
    move's reads (`select_together`) then its writes, one message each.
    A sketch (not run)::

        with atomic_together():
            room, = select_together((lock_room, 42))[0]  # SELECT … FOR UPDATE
            save_fields(room, ["version"])                # held
        # UPDATE … sent here, then Django's COMMIT
    """
    with transaction.atomic(using=using), writes_together(using):
        yield


@contextlib.contextmanager
def writes_together(using: str = "default") -> Iterator[None]:
    """Hold back this block's `save_fields` and `insert` writes and send them
    together: at the block's end, or just before any other statement on the
    connection (so every read and write still sees them, in order). On
    PostgreSQL that is one round trip for all of them. It needs a transaction
    (`transaction.atomic`): a block left by an exception sends nothing, as the
    transaction is being rolled back. Nested blocks join the outer one.
    A sketch (not run)::

        with transaction.atomic(), writes_together():
            insert(move)                    # held: its key was drawn ahead (NextKeys)
            save_fields(rnd, ["state"])     # held
        # both sent in one message here, then COMMIT
    """
    connection = connections[using]
    if not connection.in_atomic_block:
        raise RuntimeError("writes_together() needs a transaction: writes would be lost")
    if connection in _held:
        yield
        return
    held = _held[connection] = []

    def send_held_first(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        _send(connection, using, held)
        return execute(sql, params, many, context)

    try:
        with connection.execute_wrapper(send_held_first):
            yield
            _send(connection, using, held)
    finally:
        held.clear()
        del _held[connection]


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
    _write(connection, using, _Write(sql, [*params, obj.pk]))


def insert(obj: Model, using: str = "default") -> None:
    """``obj.save()`` of a new row with an automatic primary key, with the
    statement built once. The row has its key when this returns: a key drawn
    ahead (`NextKeys`, set on ``obj.pk``) is sent with the row, and inside
    `writes_together` the row is held like any write; without one the row is
    sent at once (with what was held before it, in one message) and its key
    comes back."""
    connection = connections[using]
    meta = obj._meta
    pk = meta.pk
    assert pk is not None
    keyed = obj.pk is not None
    fields = [f for f in meta.concrete_fields if keyed or f is not pk]
    returning = connection.features.can_return_columns_from_insert and not keyed
    key = (connection.vendor, meta.label, returning, keyed)
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
    if keyed:
        _keyed(obj, obj.pk, using)
        _write(connection, using, _Write(sql, params))
    else:
        _write(connection, using, _Write(sql, params, keyed=obj, returning=returning), at_once=True)


def _write(connection: Any, using: str, write: _Write, at_once: bool = False) -> None:
    held = _held.get(connection)
    if held is None:
        _send(connection, using, [write])
        return
    held.append(write)
    if at_once:
        _send(connection, using, held)


def _send(connection: Any, using: str, writes: list[_Write]) -> None:
    """Send ``writes`` (emptied first: sending runs a statement, which sends the
    held writes first) and set the new keys."""
    if not writes:
        return
    batch = list(writes)
    writes.clear()
    with connection.cursor() as cursor:
        if _one_trip(connection) and len(batch) > 1:
            cursor.execute("; ".join(w.sql for w in batch), [p for w in batch for p in w.params])
            for index, write in enumerate(batch):
                if index:
                    cursor.nextset()
                if write.keyed is not None:
                    _keyed(write.keyed, cursor.fetchone()[0], using)
            return
        for write in batch:
            cursor.execute(write.sql, write.params)
            if write.keyed is not None:
                new_pk = cursor.fetchone()[0] if write.returning else cursor.lastrowid
                _keyed(write.keyed, new_pk, using)


def _keyed(obj: Model, pk: Any, using: str) -> None:
    obj.pk = pk
    obj._state.adding = False
    obj._state.db = using


def _column(field: Any) -> str:
    """A concrete field's column name."""
    column = field.column
    assert isinstance(column, str), f"{field} has no column"
    return column
