"""The base class of every model: configuration, the JSON round trip, and pydantic's own API kept exact."""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Iterator, Mapping, Sequence, Set
from contextvars import ContextVar
from typing import Any, ClassVar, cast

from pydantic import BaseModel, ConfigDict, GetCoreSchemaHandler, GetJsonSchemaHandler, ValidationError
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, core_schema
from typing_extensions import Self, deprecated

from mplp_models import _bounded
from mplp_models._bounded import SCHEMA_ONLY
from mplp_models._canonical import written_by_their_own_method
from mplp_models._errors import json_worded
from mplp_models._public import publish
from mplp_models._reader import read
from mplp_models._writable_errors import writable_errors
from mplp_models._writer import given_members, json_members, not_null_fields, write_json

__all__ = ["SCHEMA_ONLY", "MplpModel", "json_key"]

# pydantic's types of `copy`'s include and exclude (pydantic._internal._utils).
_IncEx = Set[int] | Set[str] | Mapping[int, Any] | Mapping[str, Any]


def _model_schema(schema: Any) -> Any:
    """The ``model`` core schema inside the validators that wrap it (a model's rules are one), or None."""
    while schema["type"] in ("function-after", "function-before", "function-wrap", "definitions"):
        schema = schema["schema"]
    return schema if schema["type"] == "model" else None


_INSIDE_A_BUILD: ContextVar[bool] = ContextVar("mplp_models_building", default=False)
"""Whether a model's core schema is being built: a model's schema built inside another's is not screened again."""


def _unscreened(schema: CoreSchema, handler: GetCoreSchemaHandler) -> CoreSchema:
    """``schema``, what the handler gave, without the ``writable_errors`` step of a model built before (``_screened``).

    A model built before comes as a reference to its definition; returned
    with the same ``ref``, its unscreened form replaces that definition in the
    schema being built (the model's own validator keeps its own).
    """
    if schema["type"] == "definition-ref":
        with contextlib.suppress(LookupError):  # a model still being built (a cycle): not screened yet
            schema = handler.resolve_ref_schema(schema)
    if schema["type"] == "json-or-python" and schema["json_schema"] is schema["python_schema"].get("schema"):
        inner = schema["json_schema"]
        return cast(CoreSchema, {**inner, "ref": schema["ref"]}) if "ref" in schema else inner
    return schema


def _screened(schema: CoreSchema) -> CoreSchema:
    """``schema`` with ``writable_errors`` around it, in Python mode only.

    Where the errors of Python input come from (``json.loads``'s, so FastAPI's).
    In JSON mode, a function would be handed the whole document made Python
    values first (a third more time to read a plan); there the parser's own
    readings stand, and ``from_json`` words every refusal from the strict reading.
    The model's ``ref`` moves out, so that the JSON Schema names the model as before.
    """
    inner = cast(CoreSchema, {key: value for key, value in schema.items() if key != "ref"})
    python = core_schema.no_info_wrap_validator_function(writable_errors, inner)
    return core_schema.json_or_python_schema(json_schema=inner, python_schema=python, ref=schema.get("ref"))


def _drop_any_return_schemas(schema: Any) -> None:
    """Takes the ``return_schema`` out of every function serializer that says it returns ``Any``.

    A ``WrapSerializer`` takes its return schema from the function's annotation;
    an open object's is ``Any``, so its JSON Schema of serialization would be
    ``{}`` where validation's is ``{"type": "object", ...}``, and FastAPI would
    publish every model holding one twice (``Plan-Input``, ``Plan-Output``).
    Without it, the JSON Schema is validation's, and the serializer writes the
    function's result as before (pydantic-core's default is its any-serializer).
    """
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            members = cast("dict[str, Any]", node)
            if members.get("type") in ("function-wrap", "function-plain") and members.get("return_schema") == {
                "type": "any"
            }:
                del members["return_schema"]
            stack.extend(members.values())
        elif isinstance(node, list):
            stack.extend(cast("list[Any]", node))  # type: ignore[redundant-cast]  # pyright sees list[Unknown]


class MplpModel(BaseModel, frozen=True):
    """Base of every MPLP and Cortex model.

    A model instance is always a valid payload: it is validated when it is
    made (JSON, a dict, keyword arguments, ``model_copy(update=...)``) and
    frozen after, arrays included (tuples). Unknown keys are refused unless the
    schema opens the object. Absent fields stay absent: every way out
    (``to_json``, ``to_dict``, ``model_dump``, ``model_dump_json``) writes
    exactly the fields that were given, explicit nulls included, and nothing else.

    In keyword arguments, ``None`` for an optional field that the schema does
    not allow to be ``null`` means "not given"; in JSON and in dicts, ``null``
    there is refused, as the schema says.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(extra="forbid", allow_inf_nan=False)

    def __init__(self, /, **data: Any) -> None:
        """Validate the keyword arguments: a pydantic ``ValidationError`` for any problem.

        ``None`` for an optional field that may not be ``null`` leaves the field unset.
        """
        unset_by_none = not_null_fields(type(self))
        if unset_by_none and any(value is None for value in data.values()):
            data = {name: value for name, value in data.items() if value is not None or name not in unset_by_none}
        super().__init__(**data)

    # Validation does not call this __init__ (pydantic would, with no context, for a custom one):
    # it only reads keyword arguments, as RootModel's does.
    __init__.__pydantic_base_init__ = True  # type: ignore[attr-defined]  # pyright: ignore[reportFunctionMemberAccess]

    # --- JSON in ---

    @classmethod
    def from_json(cls, data: bytes | str, *, semantic: bool = True, allow_duplicate_keys: bool = False) -> Self:
        """Parse and validate one JSON document.

        Args:
            data: The JSON text, as UTF-8 bytes or a str.
            semantic: False checks the schema only, for payloads from systems
                that do not keep the rules beyond it.
            allow_duplicate_keys: Read duplicate keys (the last of equal keys
                wins) instead of refusing them; for trusted input only.

        Returns:
            The model, with exactly the fields the document gave.

        Raises:
            ValidationError: For every problem, from bad bytes to a bad field or
                a broken rule, each located by its path.
        """
        try:
            model: Self = read(cls, data, None if semantic else SCHEMA_ONLY, allow_duplicate_keys, None)
            return model
        except ValidationError as error:
            raise json_worded(error) from None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, semantic: bool = True) -> Self:
        """The model of ``data``, JSON-compatible Python values: the inverse of ``to_dict()``.

        As strict as ``model_validate`` (and ``from_json``): a dict read from JSON,
        not a lax coercion of one (``"1"`` is no integer, ``null`` only where the
        schema allows it); ``Plan.from_dict(plan.to_dict()) == plan``, with the same
        given fields.

        Args:
            data: The fields by name: dicts, lists, str, int, float, bool, None (or models).
            semantic: False checks the schema only, as ``from_json``'s.

        Returns:
            The model, with exactly the fields the data gave.

        Raises:
            ValidationError: For every problem, each located by its path.
        """
        return cls.model_validate(data, context=None if semantic else SCHEMA_ONLY)

    @classmethod
    def model_validate_json(
        cls,
        json_data: str | bytes | bytearray,
        *,
        strict: bool | None = None,
        extra: Any = None,
        context: Any | None = None,
        by_alias: bool | None = None,
        by_name: bool | None = None,
    ) -> Self:
        """The strict reading of ``from_json`` under pydantic's name: duplicate keys are refused too.

        Args:
            json_data: The JSON text.
            strict: Taken for pydantic's signature and ignored: the models read
                exactly what the schemas allow whatever it says (docs/pydantic.md).
            extra: Only None or ``"forbid"``: the models take only the keys their schema allows.
            context: ``SCHEMA_ONLY`` skips the rules beyond the schema.
            by_alias: pydantic's option (the models have no aliases).
            by_name: pydantic's option (the models have no aliases).

        Returns:
            The model, as ``from_json`` reads it.

        Raises:
            ValidationError: For every problem, as ``from_json``.
            ValueError: For an ``extra`` that would let unknown keys in.
        """
        _check_extra(extra)
        options = _options(by_alias=by_alias, by_name=by_name)
        try:
            model: Self = read(cls, json_data, context, False, options)
            return model
        except ValidationError as error:
            raise json_worded(error) from None

    @classmethod
    def model_validate(
        cls,
        obj: Any,
        *,
        strict: bool | None = None,
        extra: Any = None,
        from_attributes: bool | None = None,
        context: Any | None = None,
        by_alias: bool | None = None,
        by_name: bool | None = None,
    ) -> Self:
        """Validate Python data (a dict read from JSON, say) as JSON: ``null`` is refused where the schema refuses it.

        Args:
            obj: The data: dicts, lists, str, int, float, bool, None, or models.
            strict: Taken for pydantic's signature and ignored, as in ``model_validate_json``.
            extra: Only None or ``"forbid"``: the models take only the keys their schema allows.
            from_attributes: pydantic's option: read fields from an object's attributes.
            context: ``SCHEMA_ONLY`` skips the rules beyond the schema.
            by_alias: pydantic's option (the models have no aliases).
            by_name: pydantic's option (the models have no aliases).

        Returns:
            The model, with exactly the fields the data gave.

        Raises:
            ValidationError: For every problem, each located by its path.
            ValueError: For an ``extra`` that would let unknown keys in.
        """
        _check_extra(extra)
        options = _options(from_attributes=from_attributes, by_alias=by_alias, by_name=by_name)
        try:
            return cast(Self, _bounded.validate_python(cls, obj, context=context, **options))
        except ValidationError as error:
            raise json_worded(error) from None

    # --- JSON out ---

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible Python values of the model.

        Returns:
            The fields that were given, explicit nulls included, and no others.

        Raises:
            CanonicalJSONError: For an open object changed in place into something the
                reading would refuse (a value that is not JSON, a key that is not a
                string...); ``pointer`` names it, as ``to_json``'s does.
        """
        return json_members(self)

    def to_json(self) -> bytes:
        """The canonical JSON bytes (RFC 8785) of the model: stable for hashing, signing and diffing.

        Returns:
            The given fields only, keys sorted, no whitespace, numbers as ECMAScript writes them.

        Raises:
            CanonicalJSONError: For an integer beyond +/-(2**53 - 1) whose canonical
                text would not read back as the same number, and for an open object
                changed in place into something the reading would refuse (a value
                that is not JSON, a key that is not a string...); ``pointer`` names it.
        """
        # _writer.write_json: orjson writes the model (the fast path), else model_dump and canonical_json's walk.
        return write_json(self)

    @classmethod
    def __get_pydantic_core_schema__(cls, source: type[BaseModel], handler: GetCoreSchemaHandler, /) -> CoreSchema:
        outermost = not _INSIDE_A_BUILD.get()
        building = _INSIDE_A_BUILD.set(True)
        try:
            schema = _unscreened(handler(source), handler)
        finally:
            _INSIDE_A_BUILD.reset(building)
        model = _model_schema(schema)
        optional = any(not field.is_required() for field in cls.model_fields.values())
        # A serializer of the user's own (a subclass's @model_serializer) is kept: it decides what is written.
        if model is not None and optional and "serialization" not in model:
            # Every serialization (model_dump, model_dump_json, a TypeAdapter,
            # FastAPI's responses) writes the given fields only, as to_json does:
            # what pydantic writes, pydantic reads back. No return schema, so
            # the JSON Schema of serialization stays the model's own.
            model["serialization"] = core_schema.wrap_serializer_function_ser_schema(given_members)
        _drop_any_return_schemas(schema)
        # Every error of the model, its rules' and its fields' alike, quotes only what JSON can
        # write: FastAPI's plain routes render the errors of Python input (_writable_errors).
        # Once, around the outermost model: the errors of the models inside come out through it,
        # and a valid value pays one Python call, not one per model inside.
        return _screened(schema) if outermost else schema

    @classmethod
    def __get_pydantic_json_schema__(cls, schema: CoreSchema, handler: GetJsonSchemaHandler, /) -> JsonSchemaValue:
        json_schema = super().__get_pydantic_json_schema__(schema, handler)
        # An optional field is absent when not given, never null by default:
        # a `default: null` would tell clients to send what the schema refuses.
        members: dict[str, dict[str, Any]] = handler.resolve_ref_schema(json_schema).get("properties", {})
        for member in members.values():
            member.pop("default", None)
        return json_schema

    # --- change: new validated instances ---

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy; with ``update``, a new model validated like construction (rules included).

        Args:
            update: Field values to change. Fields not given stay not given;
                None unsets an optional field that may not be ``null`` (see
                ``without`` for the others).
            deep: Copy the values too (open objects are dicts, shared otherwise).

        Returns:
            The new model; the one it was called on is unchanged.

        Raises:
            ValidationError: If the changed model breaks the schema or a rule.
        """
        if not update:
            return super().model_copy(deep=deep)
        values = self._given_values()
        if deep:
            values = copy.deepcopy(values)
        return type(self)(**{**values, **update})

    @deprecated(
        "The `copy` method is deprecated; use `model_copy` instead. "
        "See the docstring of `BaseModel.copy` for details about how to handle `include` and `exclude`.",
        category=None,
    )
    def copy(
        self,
        *,
        include: _IncEx | None = None,
        exclude: _IncEx | None = None,
        update: dict[str, Any] | None = None,
        deep: bool = False,
    ) -> Self:
        """pydantic's deprecated ``copy``: what it makes, validated like construction when anything changes.

        Args:
            include: pydantic's option: the fields to keep.
            exclude: pydantic's option: the fields to leave out.
            update: Field values to change, as in ``model_copy``.
            deep: Copy the values too.

        Returns:
            The new model; with nothing changed, a copy of this one.

        Raises:
            ValidationError: If the changed model breaks the schema or a rule
                (a required field left out, ``status="bogus"``).
        """
        # pydantic's copy sets the values unchecked (its warning is kept): the result is read back
        # like construction from its given fields, as model_copy(update=...) does.
        copied = super().copy  # pyright: ignore[reportDeprecated]
        made = copied(include=include, exclude=exclude, update=update, deep=deep)
        if include is None and exclude is None and not update:
            return made
        return type(self)(**made._given_values())

    @classmethod
    def model_construct(cls, _fields_set: set[str] | None = None, **values: Any) -> Self:
        """Validated like construction: pydantic's unchecked construction would make what the schemas refuse.

        Args:
            _fields_set: pydantic's option; only the names of ``values`` (or
                None): a field is given exactly when it has a value.
            **values: The field values, as keyword arguments to the class.

        Returns:
            The model, validated (rules included).

        Raises:
            ValidationError: For any problem, as construction.
            ValueError: For a ``_fields_set`` other than the names of ``values``.
        """
        if _fields_set is not None and set(_fields_set) != values.keys():
            raise ValueError("_fields_set must name exactly the given values: a field is given when it has a value")
        return cls(**values)

    @property
    def model_fields_set(self) -> set[str]:
        """The names of the fields that were given (a copy: changing it changes nothing)."""
        return set(self.__pydantic_fields_set__)

    def without(self, *fields: str) -> Self:
        """A copy with the named optional fields not given (absent from the JSON), validated like construction.

        Args:
            *fields: The names of the fields to leave out.

        Returns:
            The new model.

        Raises:
            ValueError: For a name that is not a field of the model.
            ValidationError: If a required field is named, or a rule breaks without the fields.
        """
        unknown = sorted(set(fields) - type(self).model_fields.keys())
        if unknown:
            raise ValueError(f"{type(self).__name__} has no field {', '.join(map(repr, unknown))}")
        values = {name: value for name, value in self._given_values().items() if name not in fields}
        return type(self)(**values)

    def _given_values(self) -> dict[str, Any]:
        """The fields that were given, and the keys of their own that an open model holds (ContextRoot)."""
        held = {**self.__dict__, **(self.__pydantic_extra__ or {})}
        # `in held`: pydantic's deprecated copy(include=...) leaves given fields out of __dict__.
        return {name: held[name] for name in self.__pydantic_fields_set__ if name in held}

    # --- Python conveniences that agree with the JSON ---

    def __eq__(self, other: object) -> bool:
        """Equal when the JSON is: the same values and the same fields given (absent is not ``null``).

        Inside open objects too, where Python's ``True == 1`` would not do:
        ``{"a": true}`` and ``{"a": 1}`` differ (``1`` and ``1.0`` are one JSON number).
        """
        equal = super().__eq__(other)
        if equal is True and isinstance(other, MplpModel):
            return self.__pydantic_fields_set__ == other.__pydantic_fields_set__ and json_key(
                self._open_values()
            ) == json_key(other._open_values())
        return equal

    def __hash__(self) -> int:
        """Every model hashes, open objects and all; equal models hash equal (by the JSON equality of ``==``).

        An open object is a dict, which may be changed in place: the hash is
        then that of the changed model, as its ``to_json`` is.
        """
        return hash((type(self), json_key(tuple(self.__dict__.values())), json_key(self.__pydantic_extra__ or {})))

    def _open_values(self) -> dict[str, Any]:
        """The values that may hold open JSON, which ``==`` of dicts compares as Python does (``True == 1``).

        The fields that may hold dicts (open objects, tuples of them), and every key of an open
        model's own (ContextRoot's), whatever its value, by name.
        """
        fields = {name: value for name, value in self.__dict__.items() if _may_hold_dicts(value)}
        return {**fields, **(self.__pydantic_extra__ or {})}

    def __repr_args__(self) -> Iterator[tuple[str | None, Any]]:
        given = self.__pydantic_fields_set__
        return ((name, value) for name, value in super().__repr_args__() if name in given)


# canonical_json(model) is model.to_json(), a subclass's own included.
written_by_their_own_method(MplpModel, lambda model: model.to_json())


def _may_hold_dicts(value: Any) -> bool:
    # An array of open objects is a tuple of dicts: its first item tells (arrays of models are left to the models).
    if isinstance(value, tuple):
        items = cast("tuple[Any, ...]", value)  # type: ignore[redundant-cast]  # pyright sees tuple[Unknown, ...]
        return bool(items) and isinstance(items[0], dict)
    return isinstance(value, (dict, list))


def json_key(value: Any) -> Any:
    """A hashable value equal for equal JSON values and unequal for unequal ones (models are left to their own ``==``).

    Tagged, so that ``true`` is not ``1`` nor an object its list of pairs;
    ``1`` and ``1.0`` stay equal and hash equal, as Python's numbers do.
    """
    if isinstance(value, dict):
        members = cast("dict[str, Any]", value)
        return ("object", frozenset((key, json_key(item)) for key, item in members.items()))
    if isinstance(value, (list, tuple)):
        return ("array", tuple(json_key(item) for item in cast("Sequence[Any]", value)))
    if isinstance(value, bool):
        return ("bool", value)
    return value


def _check_extra(extra: Any) -> None:
    if extra not in (None, "forbid"):
        raise ValueError(f"extra={extra!r}: the models take only the keys their schema allows")


def _options(**options: Any) -> dict[str, Any]:
    """The validation options that were given (pydantic 2.11 does not know every keyword).

    Never ``strict``: the types take exactly what JSON Schema allows in either
    mode, and pydantic's flag overrides them. ``strict=True`` makes the Python
    mode refuse what JSON-shaped data is (a list for an array, a string for an
    enum), burying the real errors; ``strict=False`` turns off the ``strict``
    of the types' own core schemas (``"1"`` would pass as an integer).
    """
    return {name: value for name, value in options.items() if value is not None}


publish(__name__)  # the public classes above, shown as mplp_models.<name>
