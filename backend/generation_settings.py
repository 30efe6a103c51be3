"""What an answer is generated with, and the one way it becomes the engine's request.

`GenerationSettings` holds one value per setting the schema declares in its "generation"
section (`backend.settings_schema`), and `generation_request` turns them into a
`GenerationRequest`, each value into the request field its declaration names. The window,
`draftlight generate` and an answer's saved settings all go through these two, so a setting
declared in the schema reaches the request, the settings file and an answer's record with no
other change (tests/test_one_place_setting.py adds one that way).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from backend import settings_schema as schema
from backend.engine.request import PARTS, GenerationRequest, Message

SECTION = "generation"


def _declared() -> dict[str, schema.Option]:
    return {o.name: o for o in schema.section(SECTION)}


class GenerationSettings:
    """One value per declared generation setting, by name (`gs.temperature`). The settings
    are read when an object is made, so a setting declared later (as tests do) is one too;
    what it was not given is its declared default. None of it needs a model reload."""

    __slots__ = ("_values",)
    _values: dict[str, Any]

    def __init__(self, **values: Any) -> None:
        declared = _declared()
        unknown = sorted(values.keys() - declared.keys())
        if unknown:
            raise TypeError(f"not generation settings: {', '.join(unknown)}")
        object.__setattr__(self, "_values", {
            name: values.get(name, option.default) for name, option in declared.items()})

    @classmethod
    def from_dict(cls, values: Mapping[str, Any]) -> GenerationSettings:
        """The settings in `values` (an answer's saved record): keys that are no setting are
        left out, and a setting that is missing, or whose value its declaration refuses, takes
        its default (a record saved before the setting existed, or damaged)."""
        declared = _declared()
        return cls(**{k: v for k, v in values.items()
                      if k in declared and declared[k].problem(v) is None})

    def __getattr__(self, name: str) -> Any:
        # Only called for a name not among the slots: a setting, by its name.
        values = object.__getattribute__(self, "_values")
        if name in values:
            return values[name]
        option = _declared().get(name)
        if option is None:
            raise AttributeError(f"{name!r} is not a generation setting")
        return option.default  # declared after this object was made

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in _declared():
            raise AttributeError(f"{name!r} is not a generation setting")
        self._values[name] = value

    def to_dict(self) -> dict[str, Any]:
        """Every declared setting's value, by name, in the order of the declarations."""
        return {name: getattr(self, name) for name in _declared()}

    def replace(self, **changes: Any) -> GenerationSettings:
        """A copy with `changes` made."""
        return GenerationSettings(**{**self.to_dict(), **changes})

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GenerationSettings):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass it replaces

    def __repr__(self) -> str:
        values = ", ".join(f"{k}={v!r}" for k, v in self.to_dict().items())
        return f"GenerationSettings({values})"

    def __getstate__(self) -> dict[str, Any]:
        return self.to_dict()

    def __setstate__(self, state: dict[str, Any]) -> None:
        object.__setattr__(self, "_values", dict(state))


def generation_request(settings: GenerationSettings, *, messages: Iterable[Message] = (),
                       prompt: str | None = None, stop: Iterable[str] = (),
                       continue_text: str = "", request_id: int = 0) -> GenerationRequest:
    """The request that answers `messages` (formatted with the model's chat template) or
    `prompt` (raw text) with `settings`: each setting's value in the request field its
    declaration names. ValueError, naming the setting, when a value is not one it accepts."""
    own: dict[str, Any] = {}
    parts: dict[str, dict[str, Any]] = {part: {} for part in PARTS}
    for option in schema.section(SECTION):
        value = getattr(settings, option.name)
        option.check(value)
        part, _, field = option.request.rpartition(".")
        (parts[part] if part else own)[field] = value
    return GenerationRequest(
        messages=tuple(messages), prompt=prompt, stop=tuple(stop),
        continue_text=continue_text, request_id=request_id,
        **own, **{part: PARTS[part](**values) for part, values in parts.items()})
