"""Canonical spellings of model sizes and versions, so '0.50B', '500m' and '0.5b' compare equal."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

_SIZE = re.compile(r"^(?:(\d+)x)?(\d+(?:\.\d+)?)([bm])$")


def _number(text: str) -> str:
    try:
        value = Decimal(text)
    except InvalidOperation:
        return text
    return format(value.normalize(), "f")


def normalize_size(text: str) -> str | None:
    """'7B' -> '7b', '500m' -> '0.5b', '8x7B' -> '8x7b'; None when it is not a size."""
    m = _SIZE.match(text.strip().lower())
    if not m:
        return None
    experts, amount, unit = m.groups()
    value = Decimal(amount) / (1000 if unit == "m" else 1)
    if value <= 0:
        return None
    core = _number(str(value)) + "b"
    return f"{int(experts)}x{core}" if experts else core


def normalize_version(text: str) -> str:
    """'2.50' -> '2.5', 'V3' -> 'v3'; letters are kept (DeepSeek's v3 and r1)."""
    text = text.strip().lower()
    m = re.match(r"^([a-z]?)(\d+(?:\.\d+)?)$", text)
    if not m:
        return text
    return m.group(1) + _number(m.group(2))


def size_value(size: str | None) -> float:
    """Billions of parameters, to order models by size: '72b' -> 72, '8x7b' -> 56."""
    m = _SIZE.match(size or "")
    if not m:
        return 0.0
    experts, amount, unit = m.groups()
    value = float(amount) / (1000 if unit == "m" else 1)
    return value * int(experts) if experts else value
