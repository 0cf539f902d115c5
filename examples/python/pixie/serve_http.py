#!/usr/bin/env python3
"""Start one of the pixie HTTP services (SPEC §13) on 127.0.0.1:$PORT:

    python3 examples/python/pixie/serve_http.py pairing|identity [--port N]

The test hooks of §13.1 are exposed only when PIXIE_CONFORMANCE=1 (conformance http sets it)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from pixie.services import SERVICES, serve  # noqa: E402


def main(argv):
    if len(argv) not in (1, 3) or argv[0] not in SERVICES or (len(argv) == 3 and argv[1] != "--port"):
        print("usage: serve_http.py pairing|identity [--port N]  (default: $PORT)", file=sys.stderr)
        return 2
    port = argv[2] if len(argv) == 3 else os.environ.get("PORT")
    if port is None or not port.isdigit():
        print("serve_http.py: no port: give --port N or set PORT", file=sys.stderr)
        return 2
    serve(argv[0], int(port))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
