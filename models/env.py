"""On/off switches read from the environment at every call, so they can be flipped at run time."""

from __future__ import annotations

import os

_ON = ("1", "true", "yes", "on")
_OFF = ("0", "false", "no", "off")


def env_flag(name: str, default: bool) -> bool:
    """``default`` unless the variable says otherwise: a default-off switch turns on only for
    1/true/yes/on, a default-on switch turns off only for 0/false/no/off (case-insensitive)."""
    value = os.environ.get(name, "").strip().lower()
    return value not in _OFF if default else value in _ON
