"""The settle loop (SPEC §12): the sync scheduler as a pure function (state, event) → (state', actions).

The state and events are read by §2.2 (times as unsigned 64-bit integers, R12.1-1); every
deadline is computed exactly and one past 2^64 − 1 is refused (R12.1-2). A step works on a copy
of the state, so a failing event leaves nothing applied (R12.5-8).
"""
import copy

from .errors import Rejected
from .opinput import U64, array, boolean, hexbytes, integer, json_int, member, obj, text
from .state_digest import decode_digest, divergent_namespaces, namespace

DEBOUNCE_MS = 400        # §12.1
STORM_WINDOW_MS = 10000  # §12.1
STORM_LIMIT = 8          # §12.1: more than 8 rounds trips the guard
BACKOFF_MS = 30000       # §12.1
KINDS = ("local_write", "connected", "digest_received", "request_received", "response_applied", "tick")


def time(v, path):
    """R12.1-1: a time is an unsigned 64-bit integer of milliseconds."""
    return integer(v, path, U64)


def nullable_time(v, path):
    return None if v is None else time(v, path)


def deadline(t, delta):
    """R12.1-2: a time plus a constant, exactly; past 2^64 − 1 is settle_time_overflow."""
    if t + delta > U64[1]:
        raise Rejected("settle_time_overflow", "a deadline at %d is past 2^64 - 1" % (t + delta))
    return t + delta


def own_digest(v, path):
    """R12.2-1, R12.3-2: hex, then decoded as §4.8 (its codes)."""
    b = hexbytes(v, path)
    decode_digest(b)
    return b


# --- §12.2 reading and writing the state --------------------------------------------------------

def read_sibling(v, now, path):
    """§12.2 SIBLING: id (32 bytes, R12.2-2), reconciling, backoff_until, rounds (none after
    now, R12.2-3)."""
    obj(v, path)
    sid = hexbytes(member(v, "id", path), path + ".id", 32)
    reconciling = boolean(member(v, "reconciling", path), path + ".reconciling")
    backoff_until = nullable_time(member(v, "backoff_until", path), path + ".backoff_until")
    rounds = []
    for i, r in enumerate(array(member(v, "rounds", path), path + ".rounds")):
        t = time(r, "%s.rounds[%d]" % (path, i))
        if t > now:
            raise Rejected("input_bad_value", "%s.rounds[%d]: %d is after now" % (path, i, t))
        rounds.append(t)
    return {"id": sid, "reconciling": reconciling, "backoff_until": backoff_until, "rounds": sorted(rounds)}


def read_state(v):
    """§12.2, members in table order; each sibling read completely, then compared with the
    ones before it (R12.2-4)."""
    obj(v, "state")
    now = time(member(v, "now", "state"), "state.now")
    digest = own_digest(member(v, "digest", "state"), "state.digest")
    overlay = boolean(member(v, "overlay", "state"), "state.overlay")
    debounce_at = nullable_time(member(v, "debounce_at", "state"), "state.debounce_at")
    lb = member(v, "last_broadcast", "state")
    last_broadcast = None if lb is None else own_digest(lb, "state.last_broadcast")
    siblings = {}
    for i, s in enumerate(array(member(v, "siblings", "state"), "state.siblings")):
        sib = read_sibling(s, now, "state.siblings[%d]" % i)
        if sib["id"] in siblings:
            raise Rejected("duplicate_key", "sibling %s listed twice" % sib["id"].hex())
        siblings[sib["id"]] = sib
    return {"now": now, "digest": digest, "overlay": overlay, "debounce_at": debounce_at,
            "last_broadcast": last_broadcast, "siblings": siblings}


def state_json(st):
    """R12.2-5: siblings in id byte order, rounds increasing, lowercase hex, §2 integers."""
    def t(x):
        return None if x is None else json_int(x)
    return {"now": t(st["now"]), "digest": st["digest"].hex(), "overlay": st["overlay"],
            "debounce_at": t(st["debounce_at"]),
            "last_broadcast": None if st["last_broadcast"] is None else st["last_broadcast"].hex(),
            "siblings": [{"id": s["id"].hex(), "reconciling": s["reconciling"],
                          "backoff_until": t(s["backoff_until"]), "rounds": [json_int(r) for r in sorted(s["rounds"])]}
                         for _, s in sorted(st["siblings"].items())]}


# --- §12.3 reading an event ---------------------------------------------------------------------

def read_event(v, path="event"):
    """R12.5-1: at, kind (R12.3-1 exact match), then the kind's members in table order."""
    obj(v, path)
    ev = {"at": time(member(v, "at", path), path + ".at")}
    kind = text(member(v, "kind", path), path + ".kind")
    if kind not in KINDS:
        raise Rejected("settle_unknown_event", "no event kind %r" % kind)
    ev["kind"] = kind
    if kind == "local_write":
        ev["digest"] = own_digest(member(v, "digest", path), path + ".digest")
    elif kind == "digest_received":
        ev["from"] = hexbytes(member(v, "from", path), path + ".from", 32)
        ev["digest"] = hexbytes(member(v, "digest", path), path + ".digest")  # R12.3-3: any length
    elif kind == "request_received":
        ev["from"] = hexbytes(member(v, "from", path), path + ".from", 32)
        ev["namespace"] = namespace(member(v, "namespace", path), path + ".namespace")
        ev["rows"] = integer(member(v, "rows", path), path + ".rows", U64)
        ev["tombstones"] = integer(member(v, "tombstones", path), path + ".tombstones", U64)
    elif kind == "response_applied":
        ev["from"] = hexbytes(member(v, "from", path), path + ".from", 32)
        ev["namespace"] = namespace(member(v, "namespace", path), path + ".namespace")
        ev["applied"] = integer(member(v, "applied", path), path + ".applied", U64)
        ev["digest"] = own_digest(member(v, "digest", path), path + ".digest")
    return ev


# --- §12.6 the rules ----------------------------------------------------------------------------

def emit(st, to, reason, actions):
    """emit_digest; R12.6-6: an emit to every sibling sets last_broadcast."""
    to = sorted(to)
    actions.append({"action": "emit_digest", "to": [i.hex() for i in to], "reason": reason})
    if to == sorted(st["siblings"]):
        st["last_broadcast"] = st["digest"]


def mark_dirty(st, actions):
    """R12.6-2: the debounce moves to now + 400 on every write."""
    st["debounce_at"] = deadline(st["now"], DEBOUNCE_MS)
    actions.append({"action": "arm_timer", "timer": "debounce", "at": json_int(st["debounce_at"])})


def fire_debounce(st, actions):
    """R12.6-3 … R12.6-5: the debounced emit to the siblings not backed off, skipped when the
    digest is the last one that reached every sibling."""
    st["debounce_at"] = None
    recipients = [i for i, s in sorted(st["siblings"].items()) if s["backoff_until"] is None]
    if not recipients or st["digest"] == st["last_broadcast"]:
        return
    emit(st, recipients, "debounce", actions)


def fire_backoff_end(st, sib, actions):
    """R12.6-18: the back-off ends with a targeted emit."""
    sib["backoff_until"] = None
    emit(st, [sib["id"]], "backoff_end", actions)


def fire_due_deadlines(st, actions):
    """R12.5-5, R12.5-6: every deadline at or before now, in deadline order; the debounce before
    back-off ends at the same time; back-off ends in id order."""
    due = []
    if st["debounce_at"] is not None and st["debounce_at"] <= st["now"]:
        due.append((st["debounce_at"], 0, b"", None))
    for sid, s in sorted(st["siblings"].items()):
        if s["backoff_until"] is not None and s["backoff_until"] <= st["now"]:
            due.append((s["backoff_until"], 1, sid, s))
    for _, which, _, sib in sorted(due, key=lambda d: d[:3]):
        if which == 0:
            fire_debounce(st, actions)
        else:
            fire_backoff_end(st, sib, actions)


def trip_storm_guard(st, sib, divergent, actions):
    """R12.6-16: back off 30 s from the tripping round; no request; the overlay stays."""
    until = deadline(st["now"], BACKOFF_MS)
    sib["backoff_until"] = until
    sib["rounds"] = []
    sib["reconciling"] = False
    sid = sib["id"].hex()
    actions.append({"action": "back_off", "sibling": sid, "until": json_int(until)})
    actions.append({"action": "log_divergent", "sibling": sid, "namespaces": divergent})
    actions.append({"action": "arm_timer", "timer": "backoff", "sibling": sid, "at": json_int(until)})


def on_digest_received(st, ev, actions):
    """R12.6-9 … R12.6-15."""
    sib = st["siblings"][ev["from"]]
    try:
        peer = decode_digest(ev["digest"])
    except Rejected as e:  # R12.6-9, R12.6-11: decoding first, backed off or not
        actions.append({"action": "drop_digest", "from": ev["from"].hex(), "error": e.code})
        return
    if sib["backoff_until"] is not None:  # R12.6-10
        return
    divergent = divergent_namespaces(decode_digest(st["digest"]), peer)
    if not divergent:
        if sib["reconciling"]:  # R12.6-12
            emit(st, [sib["id"]], "matched", actions)
        sib["reconciling"] = False
        if st["overlay"]:  # R12.6-13
            actions.append({"action": "dismiss_overlay"})
            st["overlay"] = False
        return
    sib["rounds"].append(st["now"])  # R12.6-14
    if len(sib["rounds"]) > STORM_LIMIT:
        trip_storm_guard(st, sib, divergent, actions)
        return
    sib["reconciling"] = True  # R12.6-15
    for ns in divergent:
        actions.append({"action": "send_request", "to": sib["id"].hex(), "namespace": ns})


def on_request_received(st, ev, actions):
    """R12.6-19: respond when either count is not zero, backed off or not."""
    if ev["rows"] != 0 or ev["tombstones"] != 0:
        actions.append({"action": "send_response", "to": ev["from"].hex(), "namespace": ev["namespace"]})


def on_response_applied(st, ev, actions):
    """R12.6-20, R12.6-21: re-advertise at once unless backed off; mark dirty if it changed."""
    st["digest"] = ev["digest"]
    sib = st["siblings"][ev["from"]]
    if sib["backoff_until"] is None:
        emit(st, [sib["id"]], "applied", actions)
    if ev["applied"] != 0:
        mark_dirty(st, actions)


def apply_rule(st, ev, actions):
    """§12.6: the event's own rule (R12.5-7)."""
    kind = ev["kind"]
    if kind == "local_write":  # R12.6-1
        st["digest"] = ev["digest"]
        mark_dirty(st, actions)
    elif kind == "connected":  # R12.6-8
        st["last_broadcast"] = None
        mark_dirty(st, actions)
    elif kind == "digest_received":
        on_digest_received(st, ev, actions)
    elif kind == "request_received":
        on_request_received(st, ev, actions)
    elif kind == "response_applied":
        on_response_applied(st, ev, actions)


def step(state, ev):
    """§12.5 steps 2–6 for an event already read (step 1); returns (state', actions)."""
    if ev["at"] < state["now"]:  # R12.5-2
        raise Rejected("settle_clock_backwards", "event at %d is before now %d" % (ev["at"], state["now"]))
    if "from" in ev and ev["from"] not in state["siblings"]:  # R12.3-4, R12.5-3
        raise Rejected("settle_unknown_sibling", "no sibling %s" % ev["from"].hex())
    st = copy.deepcopy(state)  # R12.5-8: nothing applied unless every step succeeds
    st["now"] = ev["at"]
    for s in st["siblings"].values():  # R12.5-4
        s["rounds"] = [r for r in s["rounds"] if st["now"] - r < STORM_WINDOW_MS]
    actions = []
    fire_due_deadlines(st, actions)
    apply_rule(st, ev, actions)
    return st, actions


# --- §12.7 ops ----------------------------------------------------------------------------------

def op_step(inp):
    state = read_state(member(inp, "state"))
    st, actions = step(state, read_event(member(inp, "event")))
    return {"actions": actions, "state": state_json(st)}


def op_episode(inp):
    """R12.7-1: state completely, then events an array, then each event read and applied in turn."""
    st = read_state(member(inp, "state"))
    events = array(member(inp, "events"), "events")
    out = []
    for i, e in enumerate(events):
        st, actions = step(st, read_event(e, "events[%d]" % i))
        out.append(actions)
    return {"actions": out, "state": state_json(st)}


OPS = {"step": op_step, "episode": op_episode}

