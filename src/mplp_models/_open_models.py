"""The hand-written base of every object that the event and learning-sample schemas leave open.

``mplp-event-core``, its three families, ``mplp-learning-sample-core``, its two
families and their ``input``/``state``/``output``/``meta`` objects declare fields
and admit any other key (``additionalProperties: true``). Their extra keys are
read with the check of every open object, the one ``ContextRoot`` has (JSON
values only, finite numbers, nesting within ``MAX_OPEN_OBJECT_DEPTH``), and written
back as given. The check is inherited rather than copied: the fast paths know
that one function (``_context.EXTRA_FUNCTIONS``) and its proof covers these
classes too.
"""

from __future__ import annotations

from mplp_models._context import ContextRootBehaviour

__all__ = ["OpenObjectBehaviour"]


class OpenObjectBehaviour(ContextRootBehaviour, frozen=True):
    """An object the schema leaves open: keys beyond its own fields are kept, as JSON (``model_extra``)."""
