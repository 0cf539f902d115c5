"""The runner protocol (SPEC §6): JSON lines on stdin/stdout, lock-step, one result per case."""
import sys

from . import jsontext
from .errors import Rejected

PROTOCOL_VERSIONS = (1,)
MAX_LINE = 16 * 1024 * 1024   # R6.1-3: bytes per line, the \n not counted
KEPT_PREFIX = 4096            # bytes of an over-long line kept to read its id (R6.1-4)
MAX_NESTING = 10000           # R6.3-6: every nesting up to 64 decodes; past 10,000 none does


def send(msg):
    """R6.1-1, R6.1-5: one line, flushed."""
    sys.stdout.write(jsontext.dumps(msg) + "\n")
    sys.stdout.flush()


def note(text):
    print("pixie_testee.py: %s" % text, file=sys.stderr, flush=True)


def read_line(stream):
    """(bytes, too_long) for the next line, or None at EOF. R6.1-2: one \\r before \\n is
    dropped. R6.1-4: a line over MAX_LINE is read on to its \\n, keeping only a prefix."""
    line = stream.readline(MAX_LINE + 1)
    if not line:
        return None
    if line.endswith(b"\n"):
        line = line[:-1]
    elif len(line) > MAX_LINE:
        prefix = line[:KEPT_PREFIX]
        while True:
            rest = stream.readline(1 << 20)
            if not rest or rest.endswith(b"\n"):
                return prefix, True
    if line.endswith(b"\r"):
        line = line[:-1]
    return line, False


def salvage_id(b):
    """R6.3-9: the top-level "id" string of an object line that does not decode as a whole,
    found by scanning the top-level members without decoding their values; None if unreadable."""
    n = len(b)

    def space(i):
        while i < n and b[i] in b" \t\r\n":
            i += 1
        return i

    def string_end(i):
        i += 1
        while i < n:
            if b[i] == 0x5C:
                i += 2
            elif b[i] == 0x22:
                return i + 1
            else:
                i += 1
        return None

    def decode(token):
        try:
            v = jsontext.parse(token)
        except jsontext.JSONError:
            return None
        return v if jsontext.is_text(v) else None

    i = space(0)
    if i >= n or b[i] != 0x7B:
        return None
    i += 1
    while True:
        i = space(i)
        if i >= n or b[i] != 0x22:
            return None
        e = string_end(i)
        if e is None:
            return None
        name, i = decode(b[i:e]), space(e)
        if i >= n or b[i] != 0x3A:
            return None
        i = space(i + 1)
        if name == "id":
            e = string_end(i) if i < n and b[i] == 0x22 else None
            return None if e is None else decode(b[i:e])
        i = skip_value(b, i, string_end)
        if i is None:
            return None
        i = space(i)
        if i < n and b[i] == 0x2C:
            i += 1
            continue
        return None


def skip_value(b, i, string_end):
    """The offset after one JSON value of any depth starting at i (brackets counted, strings
    skipped), or None when the line ends first."""
    n, depth = len(b), 0
    while i < n:
        c = b[i]
        if c == 0x22:
            e = string_end(i)
            if e is None:
                return None
            i = e
            if depth == 0:
                return i
            continue
        if c in (0x7B, 0x5B):
            depth += 1
        elif c in (0x7D, 0x5D):
            if depth == 0:
                return i
            depth -= 1
            if depth == 0:
                return i + 1
        elif c == 0x2C and depth == 0:
            return i
        i += 1
    return None


def rejected(cid, code, message):
    return {"type": "result", "id": cid, "status": "rejected", "error": code, "message": message}


class Testee:
    """A testee over a table {format: {op: function(input) → output}} (R6.2-4)."""

    def __init__(self, formats, name="pixie-python", version="0.1.0"):
        self.formats = formats
        self.name, self.version = name, version

    def answer(self, msg):
        """R6.3-4 steps 4–6: format, then op, then the op's own checks."""
        cid = msg.get("id")
        fmt = msg.get("format")
        ops = self.formats.get(fmt) if jsontext.is_text(fmt) else None
        if ops is None:
            return rejected(cid, "unknown_format", "no format %r" % (fmt,))
        op = msg.get("op")
        fn = ops.get(op) if jsontext.is_text(op) else None
        if fn is None:
            return rejected(cid, "unknown_op", "no op %r in %s" % (op, fmt))
        try:
            return {"type": "result", "id": cid, "status": "ok", "output": fn(msg.get("input"))}
        except Rejected as e:
            return rejected(cid, e.code, e.reason)
        except Exception as e:  # a bug is an internal error, never an answer about the input
            return {"type": "result", "id": cid, "status": "error", "message": "%s: %s" % (type(e).__name__, e)}

    def hello(self, line):
        """§6.2: the answer to the runner's hello, or None after saying why on stderr
        (R6.2-1, R6.2-3)."""
        if line is None or line[1]:
            note("the first line is missing or longer than 16 MiB; expected the runner's hello")
            return None
        try:
            msg = jsontext.parse(line[0], MAX_NESTING)
        except jsontext.JSONError as e:
            note("the first line is not JSON (%s); expected the runner's hello" % e)
            return None
        if not isinstance(msg, dict) or msg.get("type") != "hello":
            note("the first line is not the runner's hello")
            return None
        offered = msg.get("protocol_versions")
        if not isinstance(offered, list) or not offered or not all(type(v) is int for v in offered):
            note("the runner's hello has no protocol_versions array of integers")
            return None
        common = [v for v in offered if v in PROTOCOL_VERSIONS]
        if not common:
            note("the runner offers protocol version(s) %s; this testee speaks %s"
                 % (", ".join(map(str, offered)), ", ".join(map(str, PROTOCOL_VERSIONS))))
            return None
        return {"type": "hello", "protocol_version": max(common), "name": self.name, "version": self.version,
                "language": "python", "capabilities": {f: list(ops) for f, ops in self.formats.items()}}

    def line(self, raw, too_long):
        """R6.3-4 steps 1–3 for one line; returns False when the session ends."""
        if too_long:  # R6.3-5
            cid = salvage_id(raw)
            if cid is None:
                note("a line longer than 16 MiB with no readable id: no answer")
            else:
                send(rejected(cid, "input_bad_length", "line longer than %d bytes (R6.1-3)" % MAX_LINE))
            return True
        try:
            msg = jsontext.parse(raw, MAX_NESTING)
        except jsontext.JSONError as e:  # R6.3-6
            cid = salvage_id(raw)
            if cid is None:
                note("a line that cannot be decoded (%s) with no readable id: no answer" % e)
            else:
                send(rejected(cid, "input_bad_value", "the line cannot be decoded: %s" % e))
            return True
        kind = msg.get("type") if isinstance(msg, dict) else None
        if kind == "shutdown":  # R6.4-1
            return False
        if kind != "case":  # R6.1-8
            note("ignoring a message of type %r" % (kind,))
        elif not jsontext.is_text(msg.get("id")):
            note("ignoring a case without a string id")
        else:
            send(self.answer(msg))
        return True

    def main(self):
        stdin = sys.stdin.buffer
        hello = self.hello(read_line(stdin))
        if hello is None:
            return 1
        send(hello)
        while True:
            line = read_line(stdin)
            if line is None:  # R6.4-2
                return 0
            if not self.line(*line):
                return 0
