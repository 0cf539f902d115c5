"""A strict JSON reader and the suite's JSON text writer (SPEC §2, §5.3 step 1, §6.1, §6.3).

Stock readers are what SPEC §2.2 warns about: they turn `1.0` into an integer or a float, keep
the last of two equal member names, accept `NaN`, let lone surrogate escapes through and recurse
until the interpreter's stack gives out. This reader:

* keeps member order and remembers whether a member name appeared twice (`Obj.duplicate`),
* returns integer literals as `int` (`-0` as 0) and every literal with a fraction or exponent as
  `Literal` (a `str` subclass holding its text), never a float,
* refuses lone surrogate escapes, unescaped control characters, `NaN`/`Infinity`, and nesting
  deeper than `max_depth` (iteratively: no recursion, so 10,000 levels cost nothing).
"""

WHITESPACE = b" \t\n\r"
ESCAPES = {0x22: '"', 0x5C: "\\", 0x2F: "/", 0x62: "\b", 0x66: "\f", 0x6E: "\n", 0x72: "\r", 0x74: "\t"}


class JSONError(ValueError):
    """The text is not one strict JSON value; `offset` is where reading stopped."""

    def __init__(self, reason, offset):
        super().__init__("%s at byte %d" % (reason, offset))
        self.offset = offset


class Obj(dict):
    """A JSON object: members in text order; `duplicate` is True when a name appeared twice
    (the later value is kept, as most readers do; frames refuse such a text, §5.3 step 1)."""

    duplicate = False


class Literal(str):
    """A JSON number with a fraction or an exponent (`1.0`, `1e0`): never an integer (§2.2-3)."""


def is_text(v):
    """A JSON string (a `Literal` number is a str subclass but not a string)."""
    return isinstance(v, str) and not isinstance(v, Literal)


class _Reader:
    def __init__(self, data, max_depth):
        if isinstance(data, str):
            try:
                data = data.encode("utf-8")
            except UnicodeEncodeError:
                raise JSONError("a lone surrogate in the text", 0)
        self.b = data
        self.i = 0
        self.max_depth = max_depth

    def fail(self, reason):
        raise JSONError(reason, self.i)

    def space(self):
        b, i, n = self.b, self.i, len(self.b)
        while i < n and b[i] in WHITESPACE:
            i += 1
        self.i = i

    def peek(self):
        self.space()
        return self.b[self.i] if self.i < len(self.b) else None

    def expect(self, ch):
        if self.peek() != ch:
            self.fail("expected %r" % chr(ch))
        self.i += 1

    def literal(self, word, value):
        if self.b[self.i:self.i + len(word)] != word:
            self.fail("not a JSON value")
        self.i += len(word)
        return value

    def number(self):
        b, start = self.b, self.i
        i = start
        if i < len(b) and b[i] == 0x2D:
            i += 1
        if i < len(b) and b[i] == 0x30:
            i += 1
        elif i < len(b) and 0x31 <= b[i] <= 0x39:
            while i < len(b) and 0x30 <= b[i] <= 0x39:
                i += 1
        else:
            self.i = i
            self.fail("not a JSON value")
        integral = True
        if i < len(b) and b[i] == 0x2E:
            i += 1
            if not (i < len(b) and 0x30 <= b[i] <= 0x39):
                self.i = i
                self.fail("a fraction needs digits")
            while i < len(b) and 0x30 <= b[i] <= 0x39:
                i += 1
            integral = False
        if i < len(b) and b[i] in b"eE":
            i += 1
            if i < len(b) and b[i] in b"+-":
                i += 1
            if not (i < len(b) and 0x30 <= b[i] <= 0x39):
                self.i = i
                self.fail("an exponent needs digits")
            while i < len(b) and 0x30 <= b[i] <= 0x39:
                i += 1
            integral = False
        self.i = i
        text = b[start:i].decode("ascii")
        return int(text) if integral else Literal(text)

    def hex4(self):
        h = self.b[self.i:self.i + 4]
        if len(h) != 4 or any(c not in b"0123456789abcdefABCDEF" for c in h):
            self.fail("a \\u escape needs four hex digits")
        self.i += 4
        return int(h, 16)

    def string(self):
        b = self.b
        self.i += 1  # the opening quote
        out = []
        start = self.i
        while True:
            if self.i >= len(b):
                self.fail("the text ends inside a string")
            c = b[self.i]
            if c == 0x22:
                chunk = b[start:self.i]
                self.i += 1
                out.append(self.utf8(chunk))
                return "".join(out)
            if c < 0x20:
                self.fail("an unescaped control character in a string")
            if c != 0x5C:
                self.i += 1
                continue
            out.append(self.utf8(b[start:self.i]))
            self.i += 1
            e = b[self.i] if self.i < len(b) else None
            if e in ESCAPES:
                out.append(ESCAPES[e])
                self.i += 1
            elif e == 0x75:
                self.i += 1
                out.append(self.escaped_code_point())
            else:
                self.fail("an unknown escape")
            start = self.i

    def escaped_code_point(self):
        u = self.hex4()
        if 0xDC00 <= u <= 0xDFFF:
            self.fail("a lone low surrogate escape")
        if 0xD800 <= u <= 0xDBFF:
            if self.b[self.i:self.i + 2] != b"\\u":
                self.fail("a high surrogate escape not followed by a low one")
            self.i += 2
            lo = self.hex4()
            if not 0xDC00 <= lo <= 0xDFFF:
                self.fail("a high surrogate escape not followed by a low one")
            return chr(0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00))
        return chr(u)

    def utf8(self, chunk):
        try:
            return chunk.decode("utf-8")
        except UnicodeDecodeError:
            self.fail("not valid UTF-8")

    def scalar(self):
        c = self.peek()
        if c == 0x22:
            return self.string()
        if c == 0x74:
            return self.literal(b"true", True)
        if c == 0x66:
            return self.literal(b"false", False)
        if c == 0x6E:
            return self.literal(b"null", None)
        if c is None:
            self.fail("the text ends where a value belongs")
        return self.number()

    def value(self):
        """One value, containers walked with an explicit stack."""
        stack = []  # (container, pending member name)
        while True:
            c = self.peek()
            if c in (0x7B, 0x5B):
                if len(stack) + 1 > self.max_depth:
                    self.fail("nested deeper than %d" % self.max_depth)
                self.i += 1
                container = Obj() if c == 0x7B else []
                closer = 0x7D if c == 0x7B else 0x5D
                if self.peek() == closer:
                    self.i += 1
                    v = container
                else:
                    stack.append([container, self.name() if c == 0x7B else None])
                    continue
            else:
                v = self.scalar()
            while True:  # place v, then close every container that ends here
                if not stack:
                    return v
                top = stack[-1]
                container = top[0]
                if isinstance(container, list):
                    container.append(v)
                else:
                    if top[1] in container:
                        container.duplicate = True
                        del container[top[1]]
                    container[top[1]] = v
                c = self.peek()
                if c == 0x2C:
                    self.i += 1
                    if isinstance(container, Obj):
                        top[1] = self.name()
                    break
                if c == (0x5D if isinstance(container, list) else 0x7D):
                    self.i += 1
                    stack.pop()
                    v = container
                    continue
                self.fail("expected ',' or the end of a container")

    def name(self):
        if self.peek() != 0x22:
            self.fail("expected a member name")
        n = self.string()
        self.expect(0x3A)
        return n


def parse(data, max_depth=10000):
    """One JSON value from `data` (bytes or str), nothing but whitespace after it."""
    r = _Reader(data, max_depth)
    v = r.value()
    r.space()
    if r.i != len(r.b):
        r.fail("bytes after the JSON value")
    return v


def has_duplicate(v):
    """Whether any object at any depth named a member twice."""
    stack = [v]
    while stack:
        x = stack.pop()
        if isinstance(x, Obj):
            if x.duplicate:
                return True
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return False


# --- writing (SPEC §2: the escaping rule R2-1) --------------------------------------------------

SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def string_text(s):
    """R2-1: `"` `\\` newline CR tab escaped short; other controls as \\u00xx lowercase;
    everything else, `/` and non-ASCII included, as itself."""
    out = ['"']
    for ch in s:
        if ch in SHORT_ESCAPES:
            out.append(SHORT_ESCAPES[ch])
        elif ord(ch) < 0x20:
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def dumps(v):
    """Compact JSON text, members in the order held; ints as numbers, bytes never (callers hex
    them first)."""
    parts = []
    stack = [v]
    while stack:
        x = stack.pop()
        if isinstance(x, _Raw):
            parts.append(x.text)
        elif x is None:
            parts.append("null")
        elif x is True:
            parts.append("true")
        elif x is False:
            parts.append("false")
        elif isinstance(x, Literal):
            parts.append(str(x))
        elif isinstance(x, int):
            parts.append(str(x))
        elif isinstance(x, str):
            parts.append(string_text(x))
        elif isinstance(x, (list, tuple)):
            items = [_Raw("[")]
            for j, y in enumerate(x):
                if j:
                    items.append(_Raw(","))
                items.append(y)
            items.append(_Raw("]"))
            stack.extend(reversed(items))
        elif isinstance(x, dict):
            items = [_Raw("{")]
            for j, (k, y) in enumerate(x.items()):
                items.append(_Raw(("," if j else "") + string_text(k) + ":"))
                items.append(y)
            items.append(_Raw("}"))
            stack.extend(reversed(items))
        else:
            raise TypeError("cannot write %s as JSON" % type(x).__name__)
    return "".join(parts)


class _Raw:
    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text
