"""Device revocation (SPEC §13.4–§13.5): the device's decision `self_status_outcome`. (The
identity HTTP service itself is not here yet.)"""
from .http_body import json_object
from .opinput import boolean, member
from .pairing import integer_or_null, text_or_null

STORES = ["device_identity_keys", "phone_ownership_cert", "session", "registration_flags", "MessageRecord",
          "PostRecord", "CallRecord", "OutboxItem", "LibSignalBlob", "RowVersion", "Contacts", "agent_memory"]
KEPT_ON_RESET = {"phone_ownership_cert", "Contacts", "agent_memory"}  # R13.5-7
RESET_STEPS = ["reset_for_recreate", "clear_onboarded", "show_onboarding"]  # R13.5-6


def outcome(asked, result, reason, reset=False):
    wiped = [s for s in STORES if s not in KEPT_ON_RESET] if reset else []
    return {"asked": asked, "outcome": result, "reason": reason, "steps": list(RESET_STEPS) if reset else [],
            "wiped": wiped, "kept": [s for s in STORES if s not in wiped]}


def self_status_outcome(has_session, is_registered, status, body):
    """R13.5-1 … R13.5-8, guards first (R13.5-3)."""
    if not has_session:
        return outcome(False, "not_asked", "revocation_no_session")
    if not is_registered:
        return outcome(False, "not_asked", "revocation_not_registered")
    if status != 200:
        return outcome(True, "unchanged", "revocation_status_failed")
    answer = json_object(body)
    if answer is None or not isinstance(answer.get("registered"), bool) or not isinstance(answer.get("revoked"), bool):
        return outcome(True, "unchanged", "revocation_status_invalid")
    if answer["revoked"]:
        return outcome(True, "reset", None, reset=True)
    return outcome(True, "unchanged", None)


def op_self_status_outcome(inp):
    has_session = boolean(member(inp, "has_session"), "has_session")
    is_registered = boolean(member(inp, "is_registered"), "is_registered")
    status = integer_or_null(inp, "status_code")
    body = text_or_null(inp, "status_body")
    return self_status_outcome(has_session, is_registered, status, body)


OPS = {"self_status_outcome": op_self_status_outcome}
