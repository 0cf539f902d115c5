"""Reading op inputs (SPEC §2.2, rules R2.2-1 … R2.2-7).

Each reader checks one member completely (presence, JSON type, hex, length, value) and raises
`Rejected` with the §3 code of the first problem. Paths in reasons are for people only.
"""
import re

from .errors import Rejected
from .jsontext import Literal, is_text

U64 = (0, 2**64 - 1)
I64 = (-(2**63), 2**63 - 1)
CANONICAL_INT = re.compile(r"0|-?[1-9][0-9]*")
HEX_ANY = re.compile(r"(?:[0-9a-fA-F]{2})*")
HEX_LOWER = re.compile(r"(?:[0-9a-f]{2})*")


def obj(v, path="input"):
    """An object where one is required; anything else is input_bad_type."""
    if not isinstance(v, dict):
        raise Rejected("input_bad_type", "%s: expected an object" % path)
    return v


def member(o, name, path=""):
    """R2.2-1: a required member; absent is input_missing_field (null is the caller's to judge)."""
    obj(o, path or "input")
    if name not in o:
        raise Rejected("input_missing_field", "missing %s" % (path + "." + name if path else name))
    return o[name]


def as_integer(v):
    """R2.2-3: the integer a JSON value spells (an integer literal or a canonical decimal
    string), or None when it spells none."""
    if isinstance(v, bool) or isinstance(v, Literal):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, str) and CANONICAL_INT.fullmatch(v):
        return int(v)
    return None


def integer(v, path, bounds=U64):
    """R2.2-3: an integer inside `bounds`; anything else is input_bad_type."""
    n = as_integer(v)
    if n is None or not bounds[0] <= n <= bounds[1]:
        raise Rejected("input_bad_type", "%s: expected an integer in %d … %d" % (path, bounds[0], bounds[1]))
    return n


def hexbytes(v, path, size=None, lower_only=False):
    """R2.2-4: not a string is input_bad_type; odd length or a non-hex digit input_bad_value;
    then a fixed size of another byte count input_bad_length."""
    if not is_text(v):
        raise Rejected("input_bad_type", "%s: expected a hex string" % path)
    if not (HEX_LOWER if lower_only else HEX_ANY).fullmatch(v):
        raise Rejected("input_bad_value", "%s: not valid hex" % path)
    b = bytes.fromhex(v)
    if size is not None and len(b) != size:
        raise Rejected("input_bad_length", "%s: expected %d bytes, got %d" % (path, size, len(b)))
    return b


def text(v, path):
    """R2.2-5: a string, taken exactly as given."""
    if not is_text(v):
        raise Rejected("input_bad_type", "%s: expected a string" % path)
    return v


def boolean(v, path):
    """R2.2-6: true or false only."""
    if not isinstance(v, bool):
        raise Rejected("input_bad_type", "%s: expected true or false" % path)
    return v


def array(v, path):
    if not isinstance(v, list):
        raise Rejected("input_bad_type", "%s: expected an array" % path)
    return v


def utf8_key(s):
    """R2.2-5: text sorts by its UTF-8 bytes (Python's code-point order is the same order)."""
    return s.encode("utf-8")


def json_int(n):
    """§2: integers up to 2^53 in magnitude as JSON numbers, decimal strings beyond."""
    return n if -(2**53) <= n <= 2**53 else str(n)
