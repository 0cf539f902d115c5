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
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from . import jsontext
from .http_body import is_json_integer, json_object

TOKEN = re.compile(r"[0-9a-f]{64}")          # R13.2-8: lowercase ASCII hex only
PUBKEY = re.compile(r"[0-9a-fA-F]{64}")      # R13.4-4: either case
USER_ID = re.compile(r"[A-Za-z0-9-]{1,64}")  # R13.4-1
BEARER = "Bearer "                           # R13.2-13: exactly these seven bytes


def hooks_enabled():
    """§13.1: the test hooks exist only when started for conformance testing."""
    return os.environ.get("PIXIE_CONFORMANCE") == "1"


class Answer:
    def __init__(self, status, body=None):
        self.status, self.body = status, body


def json_answer(status, obj):
    return Answer(status, obj)


def bearer_token(headers):
    """R13.2-13: the rest of an Authorization value that starts with exactly `Bearer `."""
    value = headers.get("Authorization")
    if value is None or not value.startswith(BEARER):
        return None
    return value[len(BEARER):]


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
        if not is_json_integer(fail) or fail < 0:
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
        if not self.admits(headers):
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
        """R13.4-2: the account of a session the hook minted, or None."""
        token = bearer_token(headers)
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

    SESSION_ROUTES = {("POST", "/v1/identity/register"), ("GET", "/v1/sync/siblings"),
                      ("POST", "/v1/sync/siblings/remove"), ("POST", "/v1/sync/siblings/revoke-all")}

    def handle(self, method, path, headers, body):
        if hooks_enabled() and method == "POST" and path == "/conformance/reset":
            if json_object(body or "{}") is None:
                return json_answer(400, {"error": "setup must be a JSON object"})
            self.reset({})
            return Answer(204)
        if hooks_enabled() and method == "POST" and path == "/conformance/session":
            return self.mint_session(body)
        if (method, path) in self.SESSION_ROUTES:
            user = self.session(headers)  # R13.4-3: before the body is read
            if user is None:
                return json_answer(401, {"error": "no session"})
            if path == "/v1/identity/register":
                return self.register(user, body)
            if path == "/v1/sync/siblings":
                with self.lock:
                    return json_answer(200, {"siblings": self.live_of(user)})
            if path == "/v1/sync/siblings/remove":
                return self.remove(user, body)
            return self.revoke_all(user)
        if method == "GET" and path.startswith(self.SELF_STATUS):
            return self.self_status(path[len(self.SELF_STATUS):])
        if method == "GET" and path.startswith(self.USERS) and path.endswith("/pubkeys"):
            user = path[len(self.USERS):-len("/pubkeys")]
            with self.lock:
                return json_answer(200, {"pubkeys": self.live_of(user)})
        return json_answer(404, {"error": "no such route"})


# --- HTTP/1.1 plumbing --------------------------------------------------------------------------

def handler_for(service):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # persistent connections for timing steps (§6.13)
        disable_nagle_algorithm = True  # headers and body are two writes: no 40 ms delayed-ACK stall

        def log_message(self, *args):
            pass

        def answer(self):
            length = self.headers.get("Content-Length")
            try:
                raw = self.rfile.read(int(length)) if length else b""
            except ValueError:
                raw = b""
            try:
                body = raw.decode("utf-8")
            except UnicodeDecodeError:
                body = None
            path = self.path.split("?", 1)[0]  # R13.2-3: the target up to its first '?'
            a = service.handle(self.command, path, self.headers, body)
            self.send_response(a.status)
            if a.body is None:
                if a.status != 204:
                    self.send_header("Content-Length", "0")
                self.end_headers()
                return
            data = jsontext.dumps(a.body).encode("utf-8")
            self.send_header("Content-Type", "application/json")  # R13.1-3
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = answer

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
