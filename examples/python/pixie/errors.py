"""The error vocabulary (SPEC §3): one exception type carrying a stable code.

Every decoder and op raises `Rejected(code, reason)`; the runner answers it as a `rejected`
result whose `error` is the code (SPEC §6.3). Codes compare exactly; the reason is for people.
"""


class Rejected(Exception):
    """An input SPEC says to refuse, with a code from the §3 table and a human reason."""

    def __init__(self, code, reason=""):
        super().__init__("%s: %s" % (code, reason) if reason else code)
        self.code = code
        self.reason = reason
