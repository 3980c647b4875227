"""Exact JSON types for the generated models.

Pydantic's defaults are lax where JSON Schema is strict (``"1"`` or ``true`` as a
number, ``0`` as a boolean, ``1700000000`` as a date-time) and rewrite what they
accept (UUIDs, datetimes). The types here accept exactly what a draft-07
validator with format checks accepts, keep the sender's text, and do it in
pydantic-core wherever possible, so no Python code runs per value.

The codegen maps schema keywords onto these names (see ``codegen/generate.py``).
``Timestamp`` (the draft-07 ``date-time`` format) is defined in ``_formats``,
beside ``email``, and given here too, where the generated models import it.
"""

from __future__ import annotations

import enum
import math
import numbers
import operator
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias, cast

from pydantic import (
    BeforeValidator,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    JsonValue,
    SerializerFunctionWrapHandler,
    StringConstraints,
    WithJsonSchema,
    WrapSerializer,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import (
    CoreSchema,
    InitErrorDetails,
    PydanticCustomError,
    PydanticKnownError,
    ValidationError,
    core_schema,
)
from typing_extensions import TypeAliasType

from mplp_models import _fastpath
from mplp_models._formats import AS_TIMESTAMP, Timestamp
from mplp_models._json_values import (
    MAX_OPEN_OBJECT_DEPTH,
    UNORDERED,
    Problem,
    first_problem,
    non_finite_name,
    plainly_json,
    screened_problem,
    within_double,
)
from mplp_models._public import publish
from mplp_models._text import pointer, short_repr

__all__ = [
    "CORE_FUNCTIONS",
    "OPEN_OBJECT_CHECK",
    "OPEN_OBJECT_REFUSAL",
    "UNIQUE_CHECK",
    "ConstOne",
    "JsonInputValue",
    "JsonInt",
    "JsonIntMin0",
    "JsonNumber",
    "JsonNumberMin0",
    "JsonNumberMin0Max1",
    "JsonNumberMin0Max5",
    "JsonObject",
    "JsonObjectInput",
    "JsonText",
    "MplpIdText",
    "NonFinite",
    "NotNull",
    "Ordered",
    "StatusEnum",
    "Timestamp",
    "UniqueItems",
]


def _unordered_error(value: object) -> PydanticCustomError:
    return PydanticCustomError(
        "unordered_array",
        "Input should be a list or a tuple, not a {kind}: an array keeps its order"
        " (pass sorted(...) if the order does not matter)",
        {"kind": type(value).__name__},
    )


def _refuse_unordered(value: Any) -> Any:
    """An array field's Python input as it is, unless it has no order (``UNORDERED``)."""
    if isinstance(value, UNORDERED):
        raise _unordered_error(cast(object, value))
    return value


def _open_object_from_python(value: Any) -> Any:
    """An open object given from Python, its tuples made lists (as ``from_json`` stores an array); else its error.

    What ``first_problem`` refuses is located at the value inside the object
    (a ``ValidationError`` raised here keeps its locations, under the field's),
    where pydantic's ``JsonValue`` would name its union's tags (``/a/dict/b``).
    """
    if not isinstance(value, dict) or (_fastpath.on(_fastpath.VALUES) and plainly_json(value)):
        return cast(object, value)  # not a dict: the dict schema refuses it
    problem = first_problem(value, tuples=True)
    if problem is None:
        return _as_lists(value)
    quoted = NonFinite(non_finite_name(cast(float, problem.value))) if problem.kind == "non_finite" else problem.value
    where = problem.location[:-1] if problem.kind == "key" else problem.location  # a key: at its object
    details = InitErrorDetails(type=_reading_error(problem), loc=cast(Any, where), input=quoted)
    raise ValidationError.from_exception_data("JsonObject", [details])


def _as_lists(value: Any) -> Any:
    """``value`` (a JSON value, tuples being arrays) with every tuple a list: itself if it holds none."""
    if isinstance(value, dict):
        members = cast(dict[str, Any], value)
        copied = {key: _as_lists(item) for key, item in members.items()}
        return members if all(copied[key] is item for key, item in members.items()) else copied
    if isinstance(value, (list, tuple)):
        items = cast(Sequence[Any], value)
        listed = [_as_lists(item) for item in items]
        return items if isinstance(items, list) and all(map(operator.is_, listed, items)) else listed
    return value


_READING_ERRORS: dict[str, tuple[str, str]] = {
    "not_json": (
        "invalid-json-value",
        "Input should be a JSON value (a dict, list, tuple, str, int, float, bool or None), not {kind}",
    ),
    "key": ("invalid_key", "Keys should be strings, not {kind} ({key})"),
    "beyond_double": ("json_invalid", "Integer is beyond a double's range, which a JSON reader refuses"),
    "surrogate": ("string_unicode", "Input should be a valid string: a lone surrogate has no UTF-8 form"),
    "surrogate_key": ("string_unicode", "Input should be a valid string: a lone surrogate has no UTF-8 form"),
    "too_deep": ("json_too_deep", f"Open object nests deeper than {MAX_OPEN_OBJECT_DEPTH} levels"),
}


def _reading_error(problem: Problem) -> PydanticCustomError:
    """The error of a reading that an open object's ``problem`` makes (a NaN's is pydantic's ``finite_number``)."""
    if problem.kind == "non_finite":
        return PydanticCustomError("finite_number", "Input should be a finite number")
    if problem.kind == "unordered":
        return _unordered_error(problem.value)
    kind, message = _READING_ERRORS[problem.kind]
    if problem.kind not in ("not_json", "key"):
        return PydanticCustomError(kind, message)  # pyright: ignore[reportArgumentType]  # chosen at run time
    context = {"kind": type(problem.value).__name__, "key": short_repr(problem.value)}
    return PydanticCustomError(kind, message, context)  # pyright: ignore[reportArgumentType]


def _check_open_object(value: Any) -> Any:
    """The open object as it is when it holds JSON values only (``first_problem``); else its error.

    In both modes: pydantic's JSON parser takes ``NaN``, ``Infinity`` and
    ``1e400`` into an open object, and Python input's value schema refuses them
    only under the model's own config (not in a ``TypeAdapter``). A NaN or an
    infinity goes on as ``NonFinite`` text, which ``_refuse_non_finite`` refuses.
    """
    problem = screened_problem(value, parsed=True) if isinstance(value, dict) else None
    if problem is None:
        return cast(object, value)
    if problem.kind == "non_finite":
        return NonFinite(non_finite_name(cast(float, problem.value)))
    raise _reading_error(problem)


def _write_open_object(value: Any, handler: SerializerFunctionWrapHandler) -> Any:
    """The open object written by ``handler``; a ``ValueError`` if it was changed in place into what the reading
    refuses (``first_problem``)."""
    problem = screened_problem(value)
    if problem is not None:
        message = f"{problem.message()} at {pointer(problem.location)}"
        raise ValueError(f"an open object changed after validation cannot be written: {message}")
    return handler(value)


class NonFinite(str):
    """What an error quotes for a NaN or an infinity: its JSON-style name, as text.

    FastAPI's default error handler answers 500 instead of 422 for an error
    whose ``input`` is a NaN, which JSON cannot write; this text it can.
    """

    __slots__ = ()


def _refuse_non_finite(value: Any) -> Any:
    if type(value) is NonFinite:
        raise PydanticKnownError("finite_number")
    return value


def _screen_number(value: Any) -> Any:
    """A NaN or an infinity as ``NonFinite`` text, which the number's own check then refuses; anything else as it is."""
    if type(value) is float and not math.isfinite(value):
        return NonFinite(non_finite_name(value))
    # A Decimal or Fraction would be rounded to a float (JSON text never reads as one), and an
    # integer beyond a double's range is written as digits that no JSON reader here reads back.
    # Anything else (a str, a bool, None) goes on to the type's own check and its own error.
    if (isinstance(value, int) and not within_double(value)) or (
        isinstance(value, numbers.Number) and not isinstance(value, (int, float))
    ):
        raise PydanticCustomError("json_number", "Input should be a finite JSON number")
    return value


if TYPE_CHECKING:  # mypy reads a recursive alias in this form, as pydantic's JsonValue does
    JsonInputValue: TypeAlias = (
        "Sequence[JsonInputValue] | Mapping[str, JsonInputValue] | str | bool | int | float | None"
    )
else:
    JsonInputValue = TypeAliasType(
        "JsonInputValue",
        Sequence["JsonInputValue"] | Mapping[str, "JsonInputValue"] | str | bool | int | float | None,
    )
"""A JSON value as a constructor takes it from Python: arrays as lists or tuples, objects as dicts.

Typed read-only (``Sequence``, ``Mapping``), which checkers hold covariant, so a ``dict[str, int]`` is
JSON input; a checker also lets through another sequence (``bytes``), which the run time refuses.
"""

if TYPE_CHECKING:
    JsonObjectInput: TypeAlias = "Mapping[str, JsonInputValue]"
else:
    JsonObjectInput = TypeAliasType("JsonObjectInput", Mapping[str, JsonInputValue])
"""What a constructor takes for an open object (``JsonObject``): a dict of JSON input values."""


class _PythonFirst:
    """Marks a type whose Python input (only) is first given to ``function``; JSON input goes straight on."""

    def __init__(self, function: Callable[[Any], Any], name: str) -> None:
        self.function, self.name = function, name

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        schema = handler(source)
        python = core_schema.no_info_before_validator_function(self.function, schema)
        return core_schema.json_or_python_schema(json_schema=schema, python_schema=python)

    def __repr__(self) -> str:
        return self.name


# Before-validators run last-listed first: the check, then the refusal of what it marked.
JsonObject = Annotated[
    dict[str, JsonValue],
    BeforeValidator(_refuse_non_finite),
    BeforeValidator(_check_open_object),
    _PythonFirst(_open_object_from_python, "FromPython"),  # Python input first made the JSON value it stands for
    WrapSerializer(_write_open_object),
]
"""An open JSON object: every key and nested value is kept as given (nesting up to ``MAX_OPEN_OBJECT_DEPTH``)."""

OPEN_OBJECT_CHECK = _check_open_object
"""``JsonObject``'s check, the outer of its two before-validators; the fast reading takes both out in JSON mode."""

OPEN_OBJECT_REFUSAL = _refuse_non_finite
"""``JsonObject``'s inner before-validator, which refuses what ``OPEN_OBJECT_CHECK`` marked."""

UUID4_PATTERN = "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"


class _MplpIdSchema:
    """An MPLP id: lowercase UUID version 4 text, with one error naming what to do with a ``uuid.UUID``."""

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.custom_error_schema(
            core_schema.str_schema(strict=True, pattern=UUID4_PATTERN),
            custom_error_type="mplp_id",
            custom_error_message=(
                "Input should be an MPLP id, lowercase UUID version 4 text such as"
                " 3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c11 (for a uuid.UUID, pass str(value);"
                " mplp_models.new_id() makes a fresh one)"
            ),
        )

    def __get_pydantic_json_schema__(self, schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        return {"type": "string", "pattern": UUID4_PATTERN}


MplpIdText = Annotated[str, _MplpIdSchema()]
"""The ``MplpId`` string type (the codegen maps the UUID version 4 pattern onto it)."""


class StatusEnum(str, enum.Enum):
    """Base of the str-valued enums: ``str()``, f-strings and ``format`` give the value on every Python (3.12
    changed ``format()`` of a mixed-in enum to give the member's name)."""

    __str__ = str.__str__
    __format__ = str.__format__  # type: ignore[assignment]  # the same call, typed by str rather than Enum

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        """Pydantic's enum schema, refusing in Python mode another enum's member whose value is one of ours.

        Such a member is a ``str`` (``PlanStatus.in_progress`` given to a step), which pydantic's lax enum reads
        by value; a refusal is pydantic's ``enum`` error. The JSON mode is pydantic's, unchanged.
        """
        # The definition reference moves to the outer schema: the inner one appears more than once.
        schema: dict[str, Any] = dict(handler(source))
        reference: str | None = schema.pop("ref", None)
        lax = cast(core_schema.CoreSchema, schema)
        members = list(cls)
        strict = core_schema.enum_schema(cls, members, sub_type="str", strict=True)
        by_value = core_schema.chain_schema([core_schema.no_info_plain_validator_function(_no_enum_member), lax])
        quoted = [repr(member.value) for member in members]
        expected = quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"
        python = core_schema.union_schema(
            [strict, by_value],
            mode="left_to_right",
            custom_error_type="enum",  # pydantic's own message: "Input should be 'a', 'b' or 'c'"
            custom_error_context={"expected": expected},
        )
        return core_schema.json_or_python_schema(json_schema=lax, python_schema=python, ref=reference)


def _no_enum_member(value: Any) -> Any:
    """The input as it is, unless it is an enum's member (``StatusEnum``'s schema has matched its own before)."""
    if isinstance(value, enum.Enum):
        raise PydanticCustomError("enum", "another enum's member")  # replaced by the union's error
    return cast(object, value)


def _integral(value: float) -> int:
    if not value.is_integer():
        raise PydanticCustomError("json_integer", "Input should be a JSON integer")
    return int(value)


_BOUND_ERRORS = {"ge": "greater_than_equal", "le": "less_than_equal"}
_BOUND_KEYWORDS = {"ge": "minimum", "le": "maximum"}


class _NumericSchema:
    """A JSON ``integer`` (an int, or a float with no fraction: ``1.0``, ``1e2``) or ``number`` (an int or a finite
    float, kept as given), never a bool or a string, with optional inclusive bounds: each one more core step
    (``Field(ge=...)`` on a union would be a Python call per value), failing with pydantic's own error."""

    def __init__(self, json_type: Literal["integer", "number"], *, ge: int | None = None, le: int | None = None):
        self.json_type = json_type
        self.bounds = {name: value for name, value in (("ge", ge), ("le", le)) if value is not None}

    def _type_schema(self) -> core_schema.CoreSchema:
        if self.json_type == "number":
            return core_schema.union_schema(
                [core_schema.int_schema(strict=True), core_schema.float_schema(strict=True, allow_inf_nan=False)],
                custom_error_type="json_number",
                custom_error_message="Input should be a finite JSON number",
            )
        # Python's int() rather than Pydantic's float-to-int, which stops at 64 bits
        # (JSON Schema counts 1e30 as an integer too). Runs for float input only.
        integral_float = core_schema.chain_schema(
            [
                core_schema.float_schema(strict=True, allow_inf_nan=False),
                core_schema.no_info_plain_validator_function(_integral),
            ]
        )
        return core_schema.union_schema(
            [core_schema.int_schema(strict=True), integral_float],
            custom_error_type="json_integer",
            custom_error_message="Input should be a JSON integer",
        )

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        steps = [self._type_schema(), *(_bound(name, value) for name, value in self.bounds.items())]
        checked = steps[0] if len(steps) == 1 else core_schema.chain_schema(steps)
        # Python input may hold a NaN (json.loads reads one); JSON text reaches
        # a float only through the parser, whose NaN the type refuses with no
        # Python call. The screen makes the error quote text, not the NaN.
        screened = core_schema.chain_schema([core_schema.no_info_plain_validator_function(_screen_number), checked])
        return core_schema.json_or_python_schema(json_schema=checked, python_schema=screened)

    def __get_pydantic_json_schema__(self, schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        return {"type": self.json_type, **{_BOUND_KEYWORDS[name]: value for name, value in self.bounds.items()}}


def _bound(name: str, value: int) -> core_schema.CoreSchema:
    # The int or the float as it is (int first: the value is one or the other), or Pydantic's error for the bound.
    limit: dict[str, Any] = {name: value}
    number = core_schema.union_schema(
        [core_schema.int_schema(strict=True, **limit), core_schema.float_schema(strict=True, **limit)]
    )
    return core_schema.custom_error_schema(number, custom_error_type=_BOUND_ERRORS[name], custom_error_context=limit)


class _ConstOneSchema:
    """The JSON value 1 (``1.0`` is the same number; ``true`` and ``"1"`` are not)."""

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        # pydantic-core's literal of ints reads an integer beyond 64 bits as "int_parsing_size"; every
        # integer but 1 is the same refusal.
        one = core_schema.custom_error_schema(
            core_schema.literal_schema([1]), custom_error_type="literal_error", custom_error_context={"expected": "1"}
        )
        return core_schema.chain_schema([_NumericSchema("integer").__get_pydantic_core_schema__(source, handler), one])

    def __get_pydantic_json_schema__(self, schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        return {"const": 1}


# StrictStr keeps a lone surrogate of a Python str, which the canonical writer would then refuse; a length
# bound, even min_length=0, makes pydantic-core read the text as UTF-8 and refuse it (string_unicode), at no
# copy for ASCII text.
JsonText = Annotated[str, StringConstraints(strict=True, min_length=0), WithJsonSchema({"type": "string"})]
"""A JSON Schema ``string`` with no other constraint."""

JsonInt = Annotated[int, _NumericSchema("integer")]
"""A JSON Schema ``integer``."""

JsonNumber = Annotated[float, _NumericSchema("number")]
"""A JSON Schema ``number``: typed ``float`` (which admits ``int``), holding the int or float that was given."""

# The bounded forms that the schemas use (``minimum``/``maximum``); the codegen
# maps each bounded integer or number onto one of these by name.
JsonIntMin0 = Annotated[int, _NumericSchema("integer", ge=0)]
"""A JSON Schema ``integer`` with ``minimum: 0``."""

JsonNumberMin0 = Annotated[float, _NumericSchema("number", ge=0)]
"""A JSON Schema ``number`` with ``minimum: 0``."""

JsonNumberMin0Max1 = Annotated[float, _NumericSchema("number", ge=0, le=1)]
"""A JSON Schema ``number`` with ``minimum: 0`` and ``maximum: 1``."""

JsonNumberMin0Max5 = Annotated[float, _NumericSchema("number", ge=0, le=5)]
"""A JSON Schema ``number`` with ``minimum: 0`` and ``maximum: 5``."""

ConstOne = Annotated[Literal[1], _ConstOneSchema()]
"""A JSON Schema ``const: 1``."""


class _NotNull:
    """Marks an optional field that may not be ``null``: ``None`` when absent, an explicit ``null`` refused."""

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        schema = handler(source)
        return schema["schema"] if schema["type"] == "nullable" else schema

    def __repr__(self) -> str:
        return "NotNull"


class _UniqueItems:
    """Marks an array whose items must be unique (JSON Schema ``uniqueItems``); the order is kept."""

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.no_info_after_validator_function(_check_unique, handler(source))

    def __get_pydantic_json_schema__(self, schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        json_schema = handler(schema)
        json_schema["uniqueItems"] = True
        return json_schema

    def __repr__(self) -> str:
        return "UniqueItems"


def _check_unique(items: list[Any]) -> list[Any]:
    # Only arrays of strings (and str-valued enums) carry uniqueItems in these
    # schemas, so hashing is the JSON equality that the keyword asks for.
    # The common case, at C speed (a set of hashable strings has a repeat exactly when it is
    # shorter than the list); the walk below decides alone with the fast paths off, and names the repeat.
    if _fastpath.on(_fastpath.VALUES) and len(set(items)) == len(items):
        return items
    seen: dict[Any, int] = {}
    for index, item in enumerate(items):
        first = seen.setdefault(item, index)
        if first != index:
            raise PydanticCustomError(
                "unique_items",
                "Array items must be unique: item {index} repeats item {first} ({item})",
                {"index": index, "first": first, "item": short_repr(item.value if hasattr(item, "value") else item)},
            )
    return items


NotNull = _NotNull()
UniqueItems = _UniqueItems()
Ordered = _PythonFirst(_refuse_unordered, "Ordered")
"""Marks an array field: from Python (only), a set or a dict view is refused; an iterator is read in order."""


UNIQUE_CHECK = _check_unique
"""``UniqueItems``'s after-validator: the fast reading finds it by identity and takes it out of the outermost
model's own fields, then makes its test itself after reading (``_reader._asked_after``)."""


CORE_FUNCTIONS: tuple[object, ...] = (
    _refuse_non_finite,  # JsonObject's before-validators: refuse what JSON cannot hold, in both modes
    _check_open_object,
    _write_open_object,  # JsonObject's WrapSerializer: model_members does its checks (and prepare writes floats)
    AS_TIMESTAMP,  # Timestamp (_formats): the matched text as a str subclass, unchanged
    _check_unique,  # UniqueItems: refuses, never changes
    _refuse_unordered,  # Ordered: Python mode only, refuses, never changes
    _open_object_from_python,  # JsonObject's Python-mode step: tuples as lists, what JSON cannot hold refused
    _screen_number,  # the numbers' Python-mode screen: NaN and infinities as text, then refused
    _integral,  # JsonInt: an integral float as the int of the same value
    _no_enum_member,  # StatusEnum's Python mode: refuses another enum's member, never changes
)
"""The functions the types here put in core schemas: the validators and serializers of the SDK's own
that a model taking the fast paths may hold (with the rules', ``given_members`` and ``writable_errors``: see
``_fast_shapes.fast_path_problems``). None makes the JSON mode read otherwise than the Python mode
(the numbers' screen only words in Python mode a refusal that JSON mode makes too; the three
Python-mode-only steps, ``_refuse_unordered``, ``_open_object_from_python`` and ``_no_enum_member``,
act only on values that no JSON parser gives, sets, views, tuples, enum members, non-string keys and
other objects, and hand anything ``load_json`` gives back as the same object), none changes a
string (the colon count of ``_reader.counts_agree`` counts their colons), and ``model_members`` makes
the serializer's checks too. A new one is added here only with that shown."""


publish(__name__)  # the public classes above, shown as mplp_models.<name>
