"""What the conversions to and from other formats share: their error, and relocated validation errors."""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

from mplp_models._public import publish
from mplp_models._text import PREFIX, pointer, quoted

__all__ = ["ConversionError", "carries_nothing", "describe", "relocated", "render"]

Path = tuple[str | int, ...]


class ConversionError(ValueError):
    """A value that one side of a conversion cannot carry, or input that is not in the expected format.

    ``path`` locates it, in the document being read or in the model being
    written (``("messages", 2, "role")``), and ``pointer`` says the same as a
    JSON Pointer (``/messages/2/role``); the message starts with it
    (``messages[2].role: ...``) and says what to do instead where there is a way.
    A model that the conversion builds is validated as any other: its problems
    raise pydantic's ``ValidationError`` (also a ``ValueError``).
    """

    def __init__(self, path: Path, message: str) -> None:
        self.path: Path = path
        self.pointer: str = pointer(path)
        """The JSON Pointer of ``path`` (``/messages/2/role``), as ``errors_as_json`` writes locations."""
        self.reason: str = message
        where = render(path)
        super().__init__(f"{where}: {message}" if where else message)


def render(path: Path) -> str:
    """``("messages", 2, "role")`` as ``messages[2].role``."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


def carries_nothing(value: object) -> bool:
    """True for the values that an optional field takes when it says nothing: ``null`` and an empty array."""
    return value is None or (isinstance(value, (list, tuple)) and not value)


def describe(value: object) -> str:
    """A short account of a found value for a message: its JSON type, and a prefix of its text for a string."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, str):
        return quoted(repr(value[:PREFIX]), len(value))
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, (list, tuple)):
        return "an array"
    return f"a {type(value).__name__}"


def relocated(error: ValidationError, title: str, names: Mapping[str, str]) -> ValidationError:
    """``error`` again, titled ``title``, its top-level field names renamed by ``names``.

    For a model built from another format: the locations then name the input's
    own keys. Codes and messages are kept.
    """
    details: list[InitErrorDetails] = []
    for entry in error.errors(include_url=False):
        loc: Path = tuple(entry["loc"])
        if loc and isinstance(loc[0], str):
            loc = (names.get(loc[0], loc[0]), *loc[1:])
        # The message is already formatted: with no context it is used as it is.
        kind = PydanticCustomError(entry["type"], entry["msg"])  # pyright: ignore[reportArgumentType]
        details.append({"type": kind, "loc": loc, "input": entry["input"]})
    return ValidationError.from_exception_data(title, details)


publish(__name__)  # the public classes above, shown as mplp_models.<name>
