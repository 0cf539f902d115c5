"""Reading an HTTP JSON answer (SPEC §13.1, R13.1-3): one JSON object, no member name repeated
at any depth; anything else is unreadable (None)."""
from . import jsontext


def json_object(body):
    """The object a body holds, or None when it is null, not strict JSON, not an object, or
    repeats a member name anywhere."""
    if body is None:
        return None
    try:
        v = jsontext.parse(body)
    except jsontext.JSONError:
        return None
    if not isinstance(v, dict) or jsontext.has_duplicate(v):
        return None
    return v


def is_json_integer(v):
    """A JSON number with no fraction or exponent, any magnitude (-0 is 0)."""
    return type(v) is int
