"""The one switch of the fast paths: ``MPLP_MODELS_NO_FAST_PATHS=1`` turns every one of them off.

A fast path gives what its strict path gives, by a proof written next to it
(docs/performance.md lists them all):

* ``from_json`` / ``model_validate_json`` / ``parse``: pydantic's JSON mode with
  the class's own validator of JSON text (``_fast_shapes.Reading``: open objects
  without a Python call, the rules and the own arrays' uniqueness asked after), kept when
  the proof (``_reader.read_as_strictly``, in one function per class: ``_reader._read_of``)
  shows it equal to the strict reading; the choice of that validator by the text
  (``Reading.validator``) and the open objects found and screened after the reading
  (``_fast_shapes._found_screened``);
* ``load_json`` (the strict reading): the duplicate-key check by colon counts,
  and the second, exact reading only of texts with an ``e+`` in orjson's writing;
* ``to_json``: orjson writes the models through ``_writer.model_members``, and
  open objects and number fields as they are where ``_canonical.exactly_json``
  (else ``written_as_is``) proves orjson's text RFC 8785's; ``_canonical.es6_number``
  takes ``repr``'s text where its layout is ECMAScript's;
* the rules: a plan's bulk checks (``_plan._sound_graph``, ``_statuses_agree``,
  ``_listed_in_order`` and the per-step check in ``_step_integrity``), a
  dialog's earliest and latest messages, ``earliest_and_latest``'s comparison
  of texts, a trace's and an inbox message's whole-model check
  (``RuledModel._plainly_sound``: ``_trace._plainly_sound``, ``_InboxRules._plainly_sound``), ``none_before``,
  and ``Timestamp``'s reading by ``datetime.fromisoformat``;
* a plan's edits (``_plan``: ``transition``, ``transition_step``, ``add_step``,
  ``update_step``, ``remove_step``), which check only the rules their change
  can break and share the untouched steps.

Off, each takes its strict path: ``from_json`` is orjson, the tokenizer's
duplicate-key check, the standard library's exact integers and a validation
of Python objects; ``to_json`` is ``canonical_json(self.to_dict())``; the
rules run step by step and message by message; a plan's edit validates
the whole new plan. Slower, and independent of the
proofs: for ruling the fast paths out when a result looks wrong, and for the
tests, which run the differential and round-trip checks both ways.

Read once, when this module is first imported. Each fast path reads
``ENABLED`` when it runs, so the tests flip it here.
"""

from __future__ import annotations

import os

__all__ = ["ENABLED"]

ENABLED: bool = os.environ.get("MPLP_MODELS_NO_FAST_PATHS", "").strip() in ("", "0")
"""Whether the fast paths are taken: unless ``MPLP_MODELS_NO_FAST_PATHS`` is set to anything but ``0``."""
