"""The literals of a MANGO answer: :class:`Node`, string unquoting, and a fast reader for the common case.

:func:`read_trajectory_list` reads, without the grammar, a list written exactly in the shape the prompts
ask for: a non-empty list of dicts whose keys are quoted strings and whose values are quoted strings or
bare atoms (numbers, words), in Python-literal or JSON syntax, with any layout and ``#`` comments. It
uses the grammar's own token patterns (``parse.lark``) and builds the same :class:`Node` values, offsets
included, that the grammar builds; for anything else (another shape, a syntax error, a list cut off) it
returns ``None`` and the caller reads the text with the grammar. Nothing is evaluated, nothing recurses:
the reader is a loop over tokens with a fixed depth, linear in the text.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_ESCAPE = re.compile(r"\\(?:(\n)|([\\'\"abfnrtv])|([0-7]{1,3})|x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})"
                     r"|U([0-9a-fA-F]{8})|N\{([^}\n]*)\})")
_NUMBER = re.compile(r"[+-]?[\d.].*")

_SURROGATES = re.compile("[\ud800-\udbff][\udc00-\udfff]")
_SIMPLE = {"\\": "\\", "'": "'", '"': '"', "a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
           "v": "\v"}

@dataclass(frozen=True, slots=True)
class Node:
    """A literal read from the answer: ``kind`` is list, dict, string or atom; ``start:end`` in the text."""

    kind: str
    value: object  # list: tuple[Node]; dict: tuple[(Node, Node)]; string: str; atom: its text
    start: int
    end: int

    def describe(self) -> str:
        if self.kind == "atom":
            return f"the {'number' if _NUMBER.fullmatch(str(self.value)) else 'bare word'} {self.value}"
        return {"list": "a list", "dict": "a dict", "string": "a string"}[self.kind]


def _unescape_match(match: re.Match) -> str:
    newline, simple, octal, hex2, hex4, hex8, name = match.groups()
    if newline is not None:
        return ""
    if simple is not None:
        return _SIMPLE[simple]
    if octal is not None:
        return chr(int(octal, 8))
    code = hex2 or hex4 or hex8
    if code is not None:
        value = int(code, 16)
        return chr(value) if value <= 0x10FFFF else match.group(0)
    try:
        return unicodedata.lookup(name)
    except KeyError:
        return match.group(0)


def _pair(match: re.Match) -> str:
    return match.group(0).encode("utf-16-le", "surrogatepass").decode("utf-16-le")


def unquote(token: str) -> str:
    """The value of one Python string literal (an unknown escape stays as written, as in Python;
    a UTF-16 surrogate pair written as two escapes is one character, as in JSON).

    >>> unquote(r"'it\\'s'"), unquote('"caf\\\\u00e9"'), unquote("u'a\\\\tb'")
    ("it's", 'café', 'a\\tb')
    """
    body = token[2:-1] if token[0] in "uU" else token[1:-1]
    if "\\" not in body:
        return body
    value = _ESCAPE.sub(_unescape_match, body)
    return _SURROGATES.sub(_pair, value) if _SURROGATES.search(value) else value


# The grammar's terminals (parse.lark): STRING (priority 2, tried first), the punctuation, NUMBER | NAME;
# the layout between them is whitespace and comments (a comment runs to the end of its line, so that the
# pattern matches layout one way only and never backtracks).
_LAYOUT = r"(?:\s|#[^\n]*(?![^\n]))*"
_STRING = r"""[uU]?(?:"(?:[^"\\\n]|\\[\s\S])*"|'(?:[^'\\\n]|\\[\s\S])*')"""
_ATOM = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[^\W\d]\w*"
_TOKEN = re.compile(rf"{_LAYOUT}(?:(?P<string>{_STRING})|(?P<punct>[\[\]{{}},:])|(?P<atom>{_ATOM}))")
# The common pair in one match: one string key, one string or atom value, and the ',' or '}' after it.
_PAIR = re.compile(rf"{_LAYOUT}(?P<key>{_STRING}){_LAYOUT}:{_LAYOUT}(?:(?P<string>{_STRING})|(?P<atom>{_ATOM}))"
                   rf"{_LAYOUT}(?P<sep>[,}}])")


def read_trajectory_list(text: str, start: int) -> tuple[Node, int] | None:
    """The flat list of dicts opened by ``text[start] == '['`` and the offset just past it, or ``None``
    when the text there is anything else (then the grammar reads it).

    >>> node, end = read_trajectory_list('[{"action": u"up", "n": 1},]', 0)
    >>> [(key.value, value.kind, value.value) for key, value in node.value[0].value], end
    ([('action', 'string', 'up'), ('n', 'atom', '1')], 28)
    >>> read_trajectory_list("[[1]]", 0) is None, read_trajectory_list("[{'a': 'b'}", 0) is None
    (True, True)
    """
    elements: list[Node] = []
    token = _TOKEN.match(text, start + 1)
    while token is not None and token.group("punct") == "{":
        element = _dict(text, token.start("punct"))
        if element is None:
            return None
        elements.append(element)
        token = _TOKEN.match(text, element.end)
        if token is None or token.group("punct") != ",":
            break
        token = _TOKEN.match(text, token.end())
    if token is None or token.group("punct") != "]" or not elements:
        return None
    return Node("list", tuple(elements), start, token.end()), token.end()


def _dict(text: str, start: int) -> Node | None:
    """The dict opened at ``start``, when it is a flat non-empty dict with string keys."""
    pairs: list[tuple[Node, Node]] = []
    position = start + 1
    while True:  # at the dict's start or after a comma: a pair, or (after a comma) the closing brace
        quick = _PAIR.match(text, position)
        if quick is not None:
            key = Node("string", unquote(quick.group("key")), quick.start("key"), quick.end("key"))
            if quick.group("string") is not None:
                value = Node("string", unquote(quick.group("string")), quick.start("string"), quick.end("string"))
            else:
                value = Node("atom", quick.group("atom"), quick.start("atom"), quick.end("atom"))
            pairs.append((key, value))
            position = quick.end()
            if quick.group("sep") == "}":
                return Node("dict", tuple(pairs), start, position)
            continue
        token = _TOKEN.match(text, position)
        if token is None:
            return None
        if token.group("punct") == "}":
            return Node("dict", tuple(pairs), start, token.end()) if pairs else None
        pair = _pair_by_tokens(text, token)
        if pair is None:
            return None
        key, value, token = pair
        pairs.append((key, value))
        position = token.end()
        if token.group("punct") == "}":
            return Node("dict", tuple(pairs), start, position)


def _pair_by_tokens(text: str, token: re.Match) -> tuple[Node, Node, re.Match] | None:
    """A pair from its first token on (adjacent strings and all), and its ',' or '}' token."""
    if token.lastgroup != "string":
        return None
    key, token = _strings(text, token)
    if token is None or token.group("punct") != ":":
        return None
    token = _TOKEN.match(text, token.end())
    if token is None:
        return None
    if token.lastgroup == "string":
        value, token = _strings(text, token)
    elif token.lastgroup == "atom":
        value = Node("atom", token.group("atom"), token.start("atom"), token.end())
        token = _TOKEN.match(text, token.end())
    else:
        return None
    if token is None or token.group("punct") not in (",", "}"):
        return None
    return key, value, token


def _strings(text: str, token: re.Match) -> tuple[Node, re.Match | None]:
    """Adjacent string literals from ``token`` on, joined as one (as in Python), and the token after them."""
    start = token.start("string")
    parts = [token.group("string")]
    end = token.end()
    token = _TOKEN.match(text, end)
    while token is not None and token.lastgroup == "string":
        parts.append(token.group("string"))
        end = token.end()
        token = _TOKEN.match(text, end)
    return Node("string", "".join(map(unquote, parts)), start, end), token
