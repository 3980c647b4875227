"""Events to and from CloudEvents v1.0 in the JSON event format (structured mode).

An Event has the core attributes of CloudEvents under other names; its
``trace_id`` travels as the extension attribute ``mplptraceid``. The mapping is
in docs/interop.md. What one side cannot carry is refused with a
``ConversionError`` naming the attribute; an Event that the attributes do not
make raises a ``ValidationError`` located at the CloudEvents attribute names.
"""

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final, Literal, cast

from pydantic import JsonValue, ValidationError

# No `from __future__ import annotations` here: TypedDict reads NotRequired only from
# evaluated annotations. typing_extensions' TypedDict reads it on Python 3.10 too.
from typing_extensions import NotRequired, TypedDict

from mplp_models._conversion import ConversionError, describe, relocated
from mplp_models._json_input import load_json
from mplp_models._public import publish

if TYPE_CHECKING:
    from mplp_models._event import EventBehaviour

__all__ = [
    "JSON_MEDIA_TYPE",
    "SPEC_VERSION",
    "TRACE_ID_ATTRIBUTE",
    "CloudEvent",
    "event_document",
    "located",
    "to_cloudevent",
]

SPEC_VERSION: Final = "1.0"
TRACE_ID_ATTRIBUTE: Final = "mplptraceid"
"""The CloudEvents extension attribute that carries an Event's ``trace_id`` (an MPLP id, not W3C trace context)."""
JSON_MEDIA_TYPE: Final = "application/json"


def _uri_reference_pattern() -> str:
    """RFC 3986's URI-reference (section 4.1), its ABNF as a regular expression.

    IPv6 literals are checked for their characters only, not their groups.
    """
    pct = "%[0-9A-Fa-f]{2}"
    pchar = f"(?:[A-Za-z0-9\\-._~!$&'()*+,;=:@]|{pct})"
    segment_nz_nc = f"(?:[A-Za-z0-9\\-._~!$&'()*+,;=@]|{pct})+"
    host = (
        "(?:\\[(?:[0-9A-Fa-f:.]+|v[0-9A-Fa-f]+\\.[A-Za-z0-9\\-._~!$&'()*+,;=:]+)\\]"
        f"|(?:[A-Za-z0-9\\-._~!$&'()*+,;=]|{pct})*)"
    )
    authority = f"(?:(?:[A-Za-z0-9\\-._~!$&'()*+,;=:]|{pct})*@)?{host}(?::[0-9]*)?"
    path_abempty = f"(?:/{pchar}*)*"
    path_absolute = f"/(?:{pchar}+{path_abempty})?"
    tail = f"(?:\\?(?:{pchar}|[/?])*)?(?:#(?:{pchar}|[/?])*)?"
    uri = f"[A-Za-z][A-Za-z0-9+\\-.]*:(?://{authority}{path_abempty}|{path_absolute}|{pchar}+{path_abempty}|){tail}"
    relative = f"(?://{authority}{path_abempty}|{path_absolute}|{segment_nz_nc}{path_abempty}|){tail}"
    return f"(?:{uri}|{relative})"


# CloudEvents attribute (or member) -> Event field
_FIELD_OF = {
    "id": "event_id",
    "type": "event_type",
    "source": "source",
    "time": "timestamp",
    TRACE_ID_ATTRIBUTE: "trace_id",
    "data": "data",
}
_ATTRIBUTE_OF = {field: attribute for attribute, field in _FIELD_OF.items()}
_READ = {"specversion", "datacontenttype", "data_base64", *_FIELD_OF}
_URI_REFERENCE = re.compile(_uri_reference_pattern())
# CloudEvents 1.0, Attribute Naming Convention: names MUST be lower-case ASCII letters or digits.
_ATTRIBUTE_NAME = re.compile(r"[a-z0-9]+")
# Members of the JSON format that are not context attributes, so not bound by that rule.
_DATA_MEMBERS = frozenset({"data", "data_base64"})
_NAMING_RULE = "CloudEvents attribute names are lower-case ASCII letters and digits only (a-z, 0-9)"
_JSON_SUBTYPE = re.compile(r"[^/\s]+/(?:[^/\s]+\+)?json", re.IGNORECASE)


class CloudEvent(TypedDict):
    """A CloudEvents v1.0 event in the JSON format, as an Event writes it.

    ``mplptraceid`` is there when the Event has a ``trace_id``; ``data``
    (``null`` included) when the Event has data, with ``datacontenttype``
    ``application/json``.
    """

    specversion: Literal["1.0"]
    id: str
    source: str
    type: str
    time: str
    mplptraceid: NotRequired[str]
    datacontenttype: NotRequired[Literal["application/json"]]
    data: NotRequired[dict[str, JsonValue] | None]


def to_cloudevent(event: "EventBehaviour") -> CloudEvent:
    """The event as a CloudEvent; see ``Event.to_cloudevent``."""
    _check_source(event.source)
    written: CloudEvent = {
        "specversion": SPEC_VERSION,
        "id": event.event_id,
        "source": event.source,
        "type": event.event_type,
        "time": str(event.timestamp),
    }
    if event.trace_id is not None:
        written["mplptraceid"] = event.trace_id
    if "data" in event.model_fields_set:
        written["datacontenttype"] = JSON_MEDIA_TYPE
        # to_dict copies: the CloudEvent shares no object with the event.
        written["data"] = event.to_dict()["data"]
    return written


def event_document(given: Mapping[str, Any] | bytes | str, drop_attributes: Iterable[str]) -> dict[str, Any]:
    """The Event's fields from a CloudEvent; a ``ConversionError`` for what an Event cannot carry.

    ``drop_attributes`` is any iterable of names (read once: an iterator is
    fine), but not a lone string; a ``TypeError`` names it otherwise.
    """
    dropped = _droppable(drop_attributes)
    found: object = load_json(given, "CloudEvent") if isinstance(given, (bytes, bytearray, memoryview, str)) else given
    if not isinstance(found, Mapping):
        raise _not_one_event(found)
    # In the JSON format an attribute that is null is unset; data null is a payload.
    members = cast("Mapping[str, Any]", found)
    attributes = {key: value for key, value in members.items() if value is not None or key == "data"}
    _check_specversion(attributes.get("specversion"))
    _check_names(members)
    _check_data(attributes, dropped)
    for name in attributes:
        if name not in _READ and name not in dropped:
            raise ConversionError(
                (name,), f"an Event has no place for this attribute; pass drop_attributes=[{name!r}] to leave it out"
            )
    if "time" not in attributes:
        raise ConversionError(("time",), "absent or null: CloudEvents makes time optional, but an Event needs it")
    source = attributes.get("source")
    if isinstance(source, str):
        _check_source(source)
    return {field: attributes[name] for name, field in _FIELD_OF.items() if name in attributes}


def located(error: ValidationError) -> ValidationError:
    """A validation error of the Event built from a CloudEvent, located at the CloudEvents attribute names."""
    return relocated(error, "CloudEvent", _ATTRIBUTE_OF)


def _not_one_event(found: object) -> ConversionError:
    text = describe(found)
    batch = " (a batch: read each of its events)" if isinstance(found, list) else ""
    return ConversionError((), f"expected one CloudEvent, a JSON object; found {text}{batch}")


def _droppable(names: Iterable[str]) -> frozenset[str]:
    """The names of ``drop_attributes``, read once; a ``TypeError`` for an argument of the wrong type."""
    # A lone string is an iterable of one-letter names: never what the caller meant.
    expected = "drop_attributes must be an iterable of attribute names (strings)"
    if isinstance(names, str):
        raise TypeError(f"{expected}; found the string {names!r}")
    if not isinstance(names, Iterable):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(f"{expected}; found {type(names).__name__}")
    given = tuple(names)  # once: an iterator is used up by reading it
    for name in given:
        if not isinstance(name, str):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(f"drop_attributes must hold attribute names (strings); found {type(name).__name__}")
        if name not in _DATA_MEMBERS and _ATTRIBUTE_NAME.fullmatch(name) is None:
            raise ConversionError(
                ("drop_attributes",), f"{name!r} is not an attribute name, so no CloudEvent has it: {_NAMING_RULE}"
            )
    kept = sorted(name for name in given if name in _READ and name != "datacontenttype")
    if kept:
        raise ConversionError(("drop_attributes",), f"{kept[0]!r} is read into the Event (or refused), never dropped")
    return frozenset(given)


def _check_names(names: Iterable[object]) -> None:
    """Every member but the data ones is an attribute, named as CloudEvents says it MUST be (null ones too)."""
    for name in names:
        if name in _DATA_MEMBERS:
            continue
        if not isinstance(name, str):
            raise ConversionError((), f"{describe(name)} is not an attribute name: {_NAMING_RULE}")
        if _ATTRIBUTE_NAME.fullmatch(name) is None:
            # Not dropped even when asked: an object that breaks the rule is no CloudEvent.
            raise ConversionError(
                (name,), f"{name!r} is not an attribute name, so this is no CloudEvent: {_NAMING_RULE}"
            )


def _check_specversion(version: object) -> None:
    if version != SPEC_VERSION:
        found = "absent" if version is None else describe(version)
        raise ConversionError(("specversion",), f"only CloudEvents {SPEC_VERSION} is read; found {found}")


def _check_data(attributes: Mapping[str, Any], dropped: frozenset[str]) -> None:
    """JSON data that an Event keeps: a JSON object or null, declared application/json (or not declared)."""
    if "data_base64" in attributes:
        raise ConversionError(
            ("data_base64",), "binary data has no place in an Event, whose data is a JSON object or null"
        )
    content_type = attributes.get("datacontenttype")
    droppable = "datacontenttype" in dropped
    if content_type is not None and "data" in attributes:
        _check_content_type(content_type, droppable)
    elif content_type is not None and not droppable:
        # An Event writes a media type only beside its data: this one would not come back.
        raise ConversionError(
            ("datacontenttype",),
            "a media type with no data, which an Event does not keep; "
            "pass drop_attributes=['datacontenttype'] to accept that",
        )
    data = attributes.get("data")
    if data is not None and not isinstance(data, Mapping):
        raise ConversionError(("data",), f"an Event's data is a JSON object or null; found {describe(data)}")


def _check_content_type(content_type: object, droppable: bool) -> None:
    where = ("datacontenttype",)
    if not isinstance(content_type, str):
        raise ConversionError(where, f"expected a media type; found {describe(content_type)}")
    # Parameters are ignored: application/json defines none (RFC 8259 section 11).
    media = content_type.split(";", 1)[0].strip()
    if media.lower() == JSON_MEDIA_TYPE:
        return
    if _JSON_SUBTYPE.fullmatch(media) is None:
        raise ConversionError(where, f"{content_type!r} is not JSON, and an Event's data is a JSON object or null")
    if not droppable:
        raise ConversionError(
            where,
            f"{content_type!r}: an Event keeps JSON data but not its media type, and reads back as {JSON_MEDIA_TYPE}; "
            "pass drop_attributes=['datacontenttype'] to accept that",
        )


def _check_source(source: str) -> None:
    if not source or _URI_REFERENCE.fullmatch(source) is None:
        raise ConversionError(
            ("source",),
            f"{describe(source)} is not a URI-reference, which CloudEvents requires of source "
            "(non-empty, RFC 3986: no spaces or other characters unencoded, one # at most, "
            "[ ] only around an IP address)",
        )


publish(__name__)  # the public classes above, shown as mplp_models.<name>
