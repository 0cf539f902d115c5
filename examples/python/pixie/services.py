"""The HTTP services of SPEC §13 on the standard library: the TOFU pairing service (§13.2) and
the identity service (§13.4), each with the test hooks of §13.1 when PIXIE_CONFORMANCE=1.

    PORT=4610 PIXIE_CONFORMANCE=1 python3 examples/python/pixie/serve_http.py pairing
    conformance http --format pairing -- python3 examples/python/pixie/serve_http.py pairing
    conformance http --format revocation -- python3 examples/python/pixie/serve_http.py identity
"""
import hmac
import os
import re
import secrets
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from . import jsontext
from .http_body import is_json_integer, json_object

TOKEN = re.compile(r"[0-9a-f]{64}")          # R13.2-8: lowercase ASCII hex only
PUBKEY = re.compile(r"[0-9a-fA-F]{64}")      # R13.4-4: either case
USER_ID = re.compile(r"[A-Za-z0-9-]{1,64}")  # R13.4-1
BEARER = "Bearer "                           # R13.2-13: exactly these seven bytes
SESSION_CREDENTIALS = re.compile(r"[Bb][Ee][Aa][Rr][Ee][Rr] +(.+)", re.S)  # R13.4-15: any case, 1+ spaces
UINT64_MAX = 2**64 - 1                       # R13.1-2, §2.2 rule 3: an unsigned integer
OPT_WHITESPACE = " \t"                        # R13.1-8: OWS around a field value (RFC 9112 §5.1)


def hooks_enabled():
    """§13.1: the test hooks exist only when started for conformance testing."""
    return os.environ.get("PIXIE_CONFORMANCE") == "1"


class Answer:
    def __init__(self, status, body=None):
        self.status, self.body = status, body


def json_answer(status, obj):
    return Answer(status, obj)


def authorization(headers):
    """R13.2-19, R13.1-8: the value of the one Authorization field line, without the spaces and
    tabs around it; None when there is none or more than one (not a list field, RFC 9110 §5.3)."""
    lines = headers.get_all("Authorization") or []
    if len(lines) != 1:
        return None
    return lines[0].strip(OPT_WHITESPACE)


def bearer_token(headers):
    """R13.2-13: the rest of an Authorization value that starts with exactly `Bearer `."""
    value = authorization(headers)
    if value is None or not value.startswith(BEARER):
        return None
    return value[len(BEARER):]


def session_token(headers):
    """R13.4-15: `Bearer` in any ASCII case, one or more spaces (a tab is not one), then a
    non-empty token, read from the one Authorization field line (R13.2-19)."""
    value = authorization(headers)
    match = SESSION_CREDENTIALS.fullmatch(value) if value is not None else None
    return match.group(1) if match else None


def fixed_time_equal(a, b):
    """R13.2-14, R13.2-18: every byte compared, folded into one result (hmac.compare_digest)."""
    return hmac.compare_digest(a.encode("utf-8"), b.encode("utf-8"))


# --- §13.2 the pairing service ------------------------------------------------------------------

class PairingService:
    APP = {"app": "pixie-python", "version": "0.1.0", "build": "1"}
    WIRE = 1  # R13.2-2

    def __init__(self):
        self.lock = threading.Lock()
        self.reset({})

    def reset(self, setup):
        """R13.1-1, R13.1-2: unpaired; `fail_saves` of the next saves fail."""
        fail = setup.get("fail_saves", 0)
        if not is_json_integer(fail) or not 0 <= fail <= UINT64_MAX:  # R13.1-7
            return False
        with self.lock:
            self.token = None
            self.fail_saves = fail
        return True

    def save(self, token):
        """A save that may fail (R13.2-10); the caller holds the lock."""
        if self.fail_saves > 0:
            self.fail_saves -= 1
            return False
        self.token = token
        return True

    def hello(self):
        """R13.2-1."""
        out = dict(self.APP)
        out.update({"wire": self.WIRE, "paired": self.token is not None})
        return json_answer(200, out)

    def pair(self, body):
        """R13.2-5 … R13.2-12, R13.2-16: paired check, body, token rule, save, in one critical
        section so that the first pair wins."""
        with self.lock:
            if self.token is not None:  # R13.2-6: before the body is read
                return json_answer(409, {"message": "this body is already paired; reinstall to pair it again"})
            request = json_object(body)
            token = request.get("token") if request is not None else None
            if not jsontext.is_text(token) or not TOKEN.fullmatch(token):
                return json_answer(400, {"error": "the body must be {\"token\": 64 lowercase hex digits}"})
            if not self.save(token):
                return json_answer(400, {"error": "the token could not be saved"})
            return json_answer(200, {"paired": True})

    def admits(self, headers):
        """R13.2-13 … R13.2-15."""
        presented = bearer_token(headers)
        with self.lock:
            stored = self.token
        return stored is not None and presented is not None and fixed_time_equal(presented, stored)

    def handle(self, method, path, headers, body):
        """R13.2-3, R13.2-4: the two open routes, the hooks, then the bearer check before any route."""
        if (method, path) == ("GET", "/hello"):
            return self.hello()
        if (method, path) == ("POST", "/pair"):
            return self.pair(body)
        if hooks_enabled() and (method, path) == ("POST", "/conformance/reset"):
            setup = json_object(body or "{}")
            if setup is None or not self.reset(setup):
                return json_answer(400, {"error": "setup must be a JSON object"})
            return Answer(204)
        if not self.admits(headers) and not (hooks_enabled() and path.startswith("/conformance/")):  # no hook: 404 (R13.1-10)
            return json_answer(401, {"error": "unauthorized"})
        if (method, path) == ("GET", "/status"):  # R13.2-17
            return json_answer(200, {"paired": True, "wire": self.WIRE})
        return json_answer(404, {"error": "no such route"})


# --- §13.4 the identity service -----------------------------------------------------------------

class IdentityService:
    SELF_STATUS = "/v1/sync/self-status/"
    USERS = "/v1/identity/users/"

    def __init__(self):
        self.lock = threading.Lock()
        self.reset({})

    def reset(self, setup):
        """R13.1-1: no rows and no sessions."""
        with self.lock:
            self.rows = {}      # pubkey bytes → {"user": U, "revoked": bool, "seq": n}
            self.sessions = {}  # token → user id
            self.seq = 0
        return True

    def session(self, headers):
        """R13.4-2, R13.4-15: the account of a session the hook minted, or None."""
        token = session_token(headers)
        with self.lock:
            return self.sessions.get(token) if token is not None else None

    def mint_session(self, body):
        """R13.4-1."""
        request = json_object(body)
        user = request.get("user_id") if request is not None else None
        if not jsontext.is_text(user) or not USER_ID.fullmatch(user):
            return json_answer(400, {"error": "user_id: 1 to 64 of A-Z a-z 0-9 -"})
        token = secrets.token_hex(32)
        with self.lock:
            self.sessions[token] = user
        return json_answer(200, {"token": token})

    @staticmethod
    def pubkey_of(body):
        """R13.4-4: a JSON object with a string pubkey_hex of 64 hex digits; bytes or None."""
        request = json_object(body)
        key = request.get("pubkey_hex") if request is not None else None
        if not jsontext.is_text(key) or not PUBKEY.fullmatch(key):
            return None
        return bytes.fromhex(key)

    def live_of(self, user):
        """R13.4-9, R13.4-11: the account's live rows, oldest registration first."""
        rows = sorted((r["seq"], k) for k, r in self.rows.items() if r["user"] == user and not r["revoked"])
        return [k.hex() for _, k in rows]

    def register(self, user, body):
        """R13.4-5, R13.4-6: the account from the session; any existing row is 409."""
        key = self.pubkey_of(body)
        if key is None:
            return json_answer(400, {"error": "the body must be {\"pubkey_hex\": 64 hex digits}"})
        with self.lock:
            if key in self.rows:
                return json_answer(409, {"error": "this pubkey has a row"})
            self.seq += 1
            self.rows[key] = {"user": user, "revoked": False, "seq": self.seq}
        return json_answer(200, {"pubkey_hex": key.hex()})

    def remove(self, user, body):
        """R13.4-7: 204 whatever it matched."""
        key = self.pubkey_of(body)
        if key is None:
            return json_answer(400, {"error": "the body must be {\"pubkey_hex\": 64 hex digits}"})
        with self.lock:
            row = self.rows.get(key)
            if row is not None and row["user"] == user and not row["revoked"]:
                row["revoked"] = True
        return Answer(204)

    def revoke_all(self, user):
        """R13.4-8."""
        with self.lock:
            for row in self.rows.values():
                if row["user"] == user:
                    row["revoked"] = True
        return Answer(204)

    def self_status(self, segment):
        """R13.4-10, R13.4-12: public."""
        if not PUBKEY.fullmatch(segment):
            return json_answer(400, {"error": "the last segment must be 64 hex digits"})
        with self.lock:
            row = self.rows.get(bytes.fromhex(segment))
            return json_answer(200, {"registered": row is not None, "revoked": row is not None and row["revoked"]})

    SESSION_ROUTES = {("POST", "/v1/identity/register"): "register", ("GET", "/v1/sync/siblings"): "siblings",
                      ("POST", "/v1/sync/siblings/remove"): "remove",
                      ("POST", "/v1/sync/siblings/revoke-all"): "revoke_all"}

    @staticmethod
    def segment(path, prefix, suffix=""):
        """R13.4-14: the one non-empty segment between prefix and suffix (no '/' in it), or None."""
        if not (path.startswith(prefix) and path.endswith(suffix)) or len(path) < len(prefix) + len(suffix):
            return None
        middle = path[len(prefix):len(path) - len(suffix)]
        return middle if middle and "/" not in middle else None

    def route(self, method, path):
        """R13.4-14 order: the route a method and path name, byte for byte (no case folding, no
        percent-decoding, no slash rewriting), as (name, parameter); None for no route."""
        if (method, path) in self.SESSION_ROUTES:
            return self.SESSION_ROUTES[(method, path)], None
        if method != "GET":
            return None
        key = self.segment(path, self.SELF_STATUS)
        if key is not None:
            return "self_status", key
        user = self.segment(path, self.USERS, "/pubkeys")
        if user is not None:
            return "user_pubkeys", user
        return None

    def hook(self, method, path, body):
        """§13.1: the reset and session hooks (R13.1-1, R13.1-7, R13.4-1), or None for no hook."""
        if not hooks_enabled() or method != "POST":
            return None
        if path == "/conformance/reset":
            if json_object(body or "{}") is None:
                return json_answer(400, {"error": "setup must be a JSON object"})
            self.reset({})
            return Answer(204)
        if path == "/conformance/session":
            return self.mint_session(body)
        return None

    def handle(self, method, path, headers, body):
        """R13.4-14 order: the hooks, then the route, and only then the session (R13.4-3)."""
        answer = self.hook(method, path, body)
        if answer is not None:
            return answer
        found = self.route(method, path)
        if found is None:
            return json_answer(404, {"error": "no such route"})
        name, parameter = found
        if name == "self_status":
            return self.self_status(parameter)
        if name == "user_pubkeys":
            with self.lock:
                return json_answer(200, {"pubkeys": self.live_of(parameter)})
        user = self.session(headers)  # R13.4-3: before the body is read
        if user is None:
            return json_answer(401, {"error": "no session"})
        if name == "register":
            return self.register(user, body)
        if name == "siblings":
            with self.lock:
                return json_answer(200, {"siblings": self.live_of(user)})
        if name == "remove":
            return self.remove(user, body)
        return self.revoke_all(user)


# --- HTTP/1.1 plumbing --------------------------------------------------------------------------

BODY_LIMIT = 1 << 20  # R13.1-9: bodies up to 64 KiB are read whole; above 1 MiB, 413 unread
LENGTH = re.compile(r"[0-9]+")  # RFC 9110 §8.6: Content-Length is 1*DIGIT
CHUNK_SIZE = re.compile(rb"([0-9A-Fa-f]+)[ \t]*(;[^\r\n]*)?\r?\n")  # RFC 9112 §7.1


class Refused(Exception):
    """A body the service will not read (RFC 9112 §6.3, R13.1-9): answered, then the connection
    closes, since what follows can no longer be framed."""

    def __init__(self, status, message):
        super().__init__(message)
        self.answer = Answer(status, {"error": message})


def request_target(requestline):
    """R13.2-3, R13.4-14: the target exactly as the request line carries it. Stock `http.server`
    rewrites a leading `//` to `/` (gh-87389), which would make `//hello` the open route."""
    return requestline.split()[1]


def route_path(target):
    """R13.2-3: the request target up to its first '?', byte for byte."""
    return target.split("?", 1)[0]


def body_length(headers):
    """R13.1-9, RFC 9112 §6.3: the one Content-Length value (0 when absent), or None when it is
    not one decimal value."""
    values = headers.get_all("Content-Length") or []
    if not values:
        return 0
    if len(set(v.strip(OPT_WHITESPACE) for v in values)) != 1:
        return None
    value = values[0].strip(OPT_WHITESPACE)
    return int(value) if LENGTH.fullmatch(value) else None


def read_chunked(rfile, limit):
    """RFC 9112 §7.1: a chunked body, extensions and trailers skipped, at most `limit` bytes."""
    out = bytearray()
    while True:
        match = CHUNK_SIZE.fullmatch(rfile.readline(1024))
        if match is None:
            raise Refused(400, "bad chunk framing")
        size = int(match.group(1), 16)
        if size == 0:
            break
        if len(out) + size > limit:
            raise Refused(413, "the body is over 1 MiB")
        out += rfile.read(size)
        if rfile.readline(3) not in (b"\r\n", b"\n"):
            raise Refused(400, "bad chunk framing")
    while rfile.readline(65537) not in (b"\r\n", b"\n", b""):  # the trailer section
        pass
    return bytes(out)


def transfer_codings(lines):
    """RFC 9110 §5.3, RFC 9112 §7: every Transfer-Encoding line as one list, names in lowercase,
    empty elements dropped."""
    codings = (c.strip(OPT_WHITESPACE).lower() for line in lines for c in line.split(","))
    return [c for c in codings if c]


def read_body_bytes(headers, rfile, version):
    """R13.1-11 in its order, then R13.1-9: the whole body, chunked or of one Content-Length, up
    to 1 MiB; else Refused."""
    coding = headers.get_all("Transfer-Encoding")
    if coding is not None:
        if version == "HTTP/1.0":
            raise Refused(400, "an HTTP/1.0 request has no transfer coding")  # R13.1-11 step 1
        if headers.get_all("Content-Length") is not None:
            raise Refused(400, "Transfer-Encoding and Content-Length both")  # step 2
        codings = transfer_codings(coding)
        if not codings or codings[-1] != "chunked":
            raise Refused(400, "the last transfer coding is not chunked")  # step 3
        if codings != ["chunked"]:
            raise Refused(501, "the only transfer coding read is chunked")  # step 4
        return read_chunked(rfile, BODY_LIMIT)
    length = body_length(headers)
    if length is None:
        raise Refused(400, "Content-Length must be one decimal value")
    if length > BODY_LIMIT:
        raise Refused(413, "the body is over 1 MiB")  # refused unread
    return rfile.read(length) if length else b""


def no_content(method, status):
    """R13.1-4: a 204, a 304 and every answer to HEAD end with their header section."""
    return method == "HEAD" or status in (204, 304)


def handler_for(service):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # persistent connections for timing steps (§6.13)
        disable_nagle_algorithm = True  # headers and body are two writes: no 40 ms delayed-ACK stall

        def log_message(self, *args):
            pass

        def handle_one_request(self):
            """One request, whatever its method: R13.2-3 and R13.4-14 make `get`, `HEAD` and any
            other method a request the service answers (401 or 404), where stock `http.server`
            answers 501 for a method it has no `do_` for."""
            try:
                self.raw_requestline = self.rfile.readline(65537)
                if len(self.raw_requestline) > 65536:
                    self.requestline, self.request_version, self.command = "", "", ""
                    self.send_error(414)
                    return
                if not self.raw_requestline:
                    self.close_connection = True
                    return
                if not self.parse_request():
                    return
                self.path = request_target(self.requestline)
                self.answer()
                self.wfile.flush()
            except TimeoutError:
                self.close_connection = True

        def send_error(self, code, message=None, explain=None):
            """A request line or header section `http.server` refuses: a JSON answer (R13.1-3)
            that does not echo the request line as the stock page does, since the line may carry
            a token (R13.2-12, R13.4-13). Before the request line is read whole, `http.server`
            still holds HTTP/0.9 as the version and would write the body with no status line or
            header section: the services speak HTTP/1.1 only (R13.1-11)."""
            if self.request_version not in ("HTTP/1.0", "HTTP/1.1"):
                self.request_version = "HTTP/1.1"
            self.close_connection = True
            self.send_answer(Answer(code, {"error": HTTPStatus(code).phrase}))

        def read_body(self):
            """R13.1-9, R13.1-11: the whole body as text (None when it is not UTF-8)."""
            raw = read_body_bytes(self.headers, self.rfile, self.request_version)
            try:
                return raw.decode("utf-8")
            except UnicodeDecodeError:
                return None

        def answer(self):
            try:
                body = self.read_body()
            except Refused as refused:
                self.close_connection = True
                return self.send_answer(refused.answer)
            self.send_answer(service.handle(self.command, route_path(self.path), self.headers, body))

        def send_answer(self, a):
            self.send_response(a.status)
            data = b"" if a.body is None else jsontext.dumps(a.body).encode("utf-8")
            if a.body is not None:
                self.send_header("Content-Type", "application/json")  # R13.1-3
            if a.status != 204:  # R13.1-4: a 204 carries no Content-Length other than 0
                self.send_header("Content-Length", str(len(data)))
            if self.close_connection:
                self.send_header("Connection", "close")
            self.end_headers()
            if not no_content(self.command, a.status):  # R13.1-4
                self.wfile.write(data)

    return Handler


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # race steps open up to 64 connections at once


SERVICES = {"pairing": PairingService, "identity": IdentityService}


def serve(name, port):
    server = Server(("127.0.0.1", port), handler_for(SERVICES[name]()))
    try:
        server.serve_forever()
    finally:
        server.server_close()
