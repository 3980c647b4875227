"""Behaviour of ``Event`` beyond its schema: conversion to and from CloudEvents v1.0.

The methods are the model's, for users and type checkers; the work is
``_cloudevents``'s, imported when a method is first called (every model that
holds events loads this module, and none of them needs CloudEvents to read or write).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError
from typing_extensions import Self

from mplp_models._base import MplpModel

if TYPE_CHECKING:
    from mplp_models._cloudevents import CloudEvent
    from mplp_models._formats import Timestamp

__all__ = ["EventBehaviour"]


class EventBehaviour(MplpModel, frozen=True):
    """Behaviour of ``Event``: conversion to and from CloudEvents v1.0 JSON."""

    if TYPE_CHECKING:
        event_id: str
        event_type: str
        source: str
        timestamp: Timestamp
        trace_id: str | None

    def to_cloudevent(self) -> CloudEvent:
        """The event as a CloudEvents v1.0 event in the JSON format (structured mode), as plain dicts.

        ``event_id``, ``event_type``, ``source`` and ``timestamp`` become
        ``id``, ``type``, ``source`` and ``time``; ``trace_id`` the extension
        attribute ``mplptraceid``; ``data`` (``null`` too) stays ``data``, with
        ``datacontenttype`` ``application/json``; absent fields stay absent.
        Send it as ``application/cloudevents+json`` (``canonical_json`` writes it).
        A ``ConversionError`` (a ``ValueError``) if ``source`` is not a URI-reference,
        which CloudEvents requires.
        """
        from mplp_models import _cloudevents  # here: CloudEvents load on first use, not with every model

        return _cloudevents.to_cloudevent(self)

    @classmethod
    def from_cloudevent(cls, event: Mapping[str, Any] | bytes | str, *, drop_attributes: Iterable[str] = ()) -> Self:
        """The Event of a CloudEvents v1.0 event: a parsed JSON object, or its JSON text (bytes or str).

        The inverse of ``to_cloudevent``. Refused with a ``ConversionError``
        (a ``ValueError``) naming the attribute: a specversion other than 1.0,
        ``data_base64``, data that is not a JSON object or null, a
        ``datacontenttype`` that is not JSON, a missing ``time``, a ``source``
        that is not a URI-reference, a member whose name breaks CloudEvents'
        naming rule (lower-case ASCII letters and digits), and any attribute
        the Event has no place for (``subject``, ``dataschema``, extensions),
        unless named in ``drop_attributes`` (any iterable of names, read once;
        a lone string, a non-iterable or a name that is no string is a
        ``TypeError``) to be left out knowingly
        (``datacontenttype`` may be named there too, to read ``*/*+json`` data
        as plain JSON). Attributes
        that are ``null`` count as absent, as the JSON format says. Values that
        do not make a valid Event (an ``id`` that is not an MPLP id, a ``type``
        that is not dotted lowercase) raise a pydantic ``ValidationError`` located
        at the attribute names; so does JSON text that is not strict JSON.
        """
        from mplp_models import _cloudevents  # here: as above

        document = _cloudevents.event_document(event, drop_attributes)
        try:
            return cls.model_validate(document)
        except ValidationError as error:
            raise _cloudevents.located(error) from None
