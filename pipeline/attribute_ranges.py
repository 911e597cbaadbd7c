"""The values an attribute may take: a kind declares `min`, `max` or `values` on an
attribute (`age: {type: number, min: 1, max: 3}`), and every item (and the declared
default) is checked against them, C004 at the value. The declaration itself is checked
here too (R011: a bound on a type it cannot bound, `min` above `max`, a value of the
wrong type)."""

from __future__ import annotations

from typing import Any, Callable

from legacies.dsl.types import T
from legacies.dsl.vocabulary import AttributeRange

from .models import AttributeDecl

Problem = tuple[str, "str | None"]
Report = Callable[[str, str, "str | None"], None]  # (field, message, hint): an R011 at the declaration

_BOUNDED = ("amount", "numbers")  # number, numbers: min, max and values
_LISTED = ("amount", "numbers", "text")  # values only


def declared_range(decl: Any, t: T, report: Report) -> AttributeRange | None:
    """The range an attribute declaration gives (None: no bound), each mistake reported."""
    if not isinstance(decl, AttributeDecl) or (decl.min is None and decl.max is None and decl.values is None):
        return None
    lo, hi, values = decl.min, decl.max, decl.values
    if (lo is not None or hi is not None) and t.tag not in _BOUNDED and t.tag != "any":
        report("min" if lo is not None else "max", f"`min`/`max` bound a number or a list of numbers, not {t}",
               "remove them, or declare `type: number`")
        lo = hi = None
    if lo is not None and hi is not None and lo > hi:
        report("min", f"`min: {lo}` is above `max: {hi}`: no value fits", "swap them")
        lo = hi = None
    if values is not None:
        if t.tag not in _LISTED and t.tag != "any":
            report("values", f"`values` lists the numbers or texts an attribute may take, not {t}"
                   + (" (its enum already does)" if t.tag in ("symbol", "symbols") else ""), "remove it")
            values = None
        else:
            want = str if t.tag == "text" else int
            wrong = [v for v in values if type(v) is not want]
            if wrong:
                report("values", f"`values` of {t} are {'texts' if want is str else 'whole numbers'}, "
                       f"not {wrong[0]!r}", None)
                values = None
    if lo is None and hi is None and values is None:
        return None
    return AttributeRange(lo, hi, tuple(values) if values is not None else None)


def range_problem(rng: AttributeRange | None, value: Any, name: str) -> Problem | None:
    """Why `value` (already of the attribute's type) of attribute `name` is outside its
    declared range."""
    if rng is None:
        return None
    for number in _numbers(value):
        problem = _outside(rng, number, name)
        if problem:
            return problem
    return None


def _numbers(value: Any) -> list[Any]:
    """The values to check: a number, each number of a list, each era's number of an era
    value (`20/50/100`), a text."""
    items = value if isinstance(value, list) else [value]
    out: list[Any] = []
    for item in items:
        if isinstance(item, str) and "/" in item and all(p.strip().isdigit() for p in item.split("/")):
            out.extend(int(p) for p in item.split("/"))
        else:
            out.append(item)
    return out


def _outside(rng: AttributeRange, value: Any, name: str) -> Problem | None:
    if rng.values is not None and value not in rng.values:
        return (f"`{name}` is {value!r}, not one of the values it may take ({', '.join(map(str, rng.values))})",
                "the kind's declaration lists them (`values:`)")
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    if rng.lo is not None and value < rng.lo or rng.hi is not None and value > rng.hi:
        span = (f"from {rng.lo} to {rng.hi}" if rng.lo is not None and rng.hi is not None
                else f"at least {rng.lo}" if rng.lo is not None else f"at most {rng.hi}")
        return (f"`{name}` is {value}, outside its declared range ({span})",
                "the kind's declaration bounds it (`min:`/`max:`)")
    return None
