"""TOFU pairing (SPEC §13.2–§13.3): the client's decision `ensure_paired`. (The pairing HTTP
service itself is not here yet.)"""
from .http_body import is_json_integer, json_object
from .opinput import U64, boolean, integer, member, text

WIRE = 1


def ensure_paired(status, body, holds_token):
    """R13.3-1 … R13.3-8: (action, mint_token, reason)."""
    if status != 200:  # R13.3-1: the body is not read
        return "stop", False, "pairing_hello_failed"
    hello = json_object(body)  # R13.3-2
    if hello is None:
        return "stop", False, "pairing_hello_invalid"
    if "wire" not in hello or not is_json_integer(hello["wire"]):  # R13.3-3
        return "stop", False, "pairing_hello_invalid"
    if hello["wire"] != WIRE:
        return "stop", False, "pairing_wire_mismatch"
    if "paired" not in hello or not isinstance(hello["paired"], bool):  # R13.3-4
        return "stop", False, "pairing_hello_invalid"
    if hello["paired"]:
        return ("proceed", False, None) if holds_token else ("stop", False, "pairing_paired_elsewhere")  # R13.3-6/7
    return "pair", not holds_token, None  # R13.3-8


def integer_or_null(inp, name):
    """An HTTP status "integer or null" (§13.3, §13.5). SPEC gives no range; the reference reads
    it as an unsigned 64-bit integer (-1 and 2^64 are input_bad_type), and so does this."""
    v = member(inp, name)
    return None if v is None else integer(v, name, U64)


def text_or_null(inp, name):
    v = member(inp, name)
    return None if v is None else text(v, name)


def op_ensure_paired(inp):
    status = integer_or_null(inp, "hello_status")
    body = text_or_null(inp, "hello_body")
    holds = boolean(member(inp, "holds_token"), "holds_token")
    action, mint, reason = ensure_paired(status, body, holds)
    return {"action": action, "mint_token": mint, "reason": reason}


OPS = {"ensure_paired": op_ensure_paired}
