"""Read the VGDL game variants and start layouts of Messenger stages 2 and 3.

The reader follows py-vgdl's parser (``vgdl/parser.py``) for the part of VGDL these files use and
rejects anything else with the file and line: an indented ``SpriteSet`` tree whose leaves are the
sprite types (a leaf inherits its ancestors' class and arguments, its ``stypes`` are its ancestors'
keys and its own, in the tree's order), an ``InteractionSet`` (``actor actee... > effect args``, one
effect per actee, in file order), a ``TerminationSet`` and a ``LevelMapping`` (a character to the
sprite keys created on its cell). Start layouts are grids of those characters, one row per line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from plancheck.errors import BadInputError, Location

SPRITE_CLASSES = ("Immovable", "Chaser", "Fleeing", "MovingAvatar")
EFFECTS = ("stepBack", "killSprite", "transformTo")
EOS = "EOS"  # the actee that stands for leaving the screen


@dataclass(frozen=True, slots=True)
class SpriteType:
    """A leaf of the sprite tree: its key, class, ``stypes`` (ancestors then itself), speed and target."""

    key: str
    cls: str
    stypes: tuple[str, ...]
    speed: float | None = None
    target: str | None = None  # the ``stype`` a Chaser or Fleeing sprite moves toward or away from


@dataclass(frozen=True, slots=True)
class Effect:
    """One interaction: when an ``actor`` sprite overlaps an ``actee`` sprite (or leaves the screen)."""

    actor: str
    actee: str
    name: str
    score: float = 0
    stype: str | None = None  # transformTo's new sprite type


@dataclass(frozen=True, slots=True)
class Termination:
    """``SpriteCounter``: the game ends (won or lost) when at most ``limit`` sprites of ``stype`` live."""

    stype: str
    limit: int
    win: bool


@dataclass(frozen=True)
class Domain:
    """A parsed VGDL game: sprite types in definition order, effects in order, terminations, mapping."""

    name: str
    block_size: int
    sprites: tuple[SpriteType, ...]
    effects: tuple[Effect, ...]
    terminations: tuple[Termination, ...]
    mapping: dict[str, tuple[str, ...]]

    def sprite(self, key: str) -> SpriteType:
        for sprite in self.sprites:
            if sprite.key == key:
                return sprite
        raise KeyError(key)


@dataclass(frozen=True, slots=True)
class _Line:
    number: int
    indent: int
    text: str


def _lines(text: str) -> list[_Line]:
    lines = []
    for number, raw in enumerate(text.expandtabs(8).split("\n"), start=1):
        content = raw.split("#")[0]
        if content.strip():
            lines.append(_Line(number, len(content) - len(content.lstrip()), content.strip()))
    return lines


def _value(text: str) -> object:
    """py-vgdl evaluates argument values; these files use numbers, booleans and bare names."""
    if text in ("True", "False"):
        return text == "True"
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def _args(words: list[str], where: Location) -> dict[str, object]:
    args = {}
    for word in words:
        key, equals, value = word.partition("=")
        if not equals:
            raise BadInputError(f"expected name=value, found {word!r}", where)
        args[key] = _value(value)
    return args


def _children(lines: list[_Line], start: int) -> tuple[list[int], int]:
    """Indices of the direct children of ``lines[start]`` and the index after its block."""
    indent, index, children = lines[start].indent, start + 1, []
    while index < len(lines) and lines[index].indent > indent:
        if not children or lines[index].indent == lines[children[0]].indent:
            children.append(index)
        elif lines[index].indent < lines[children[0]].indent:
            raise BadInputError("inconsistent indentation", Location(line=lines[index].number))
        index += 1
    return children, index


def parse_domain(text: str, source: str = "<vgdl>") -> Domain:
    """A :class:`Domain` from VGDL text (``source`` names it in errors)."""
    lines = _lines(text)
    if not lines or not lines[0].text.startswith("BasicGame"):
        raise BadInputError("a VGDL game starts with 'BasicGame'", Location(source, 1))
    header = _args(lines[0].text.split()[1:], Location(source, lines[0].number))
    sprites: list[SpriteType] = []
    effects: list[Effect] = []
    terminations: list[Termination] = []
    mapping: dict[str, tuple[str, ...]] = {}

    def sprite_tree(index: int, cls: str | None, args: dict, stypes: tuple[str, ...]) -> None:
        line = lines[index]
        where = Location(source, line.number)
        key, arrow, definition = line.text.partition(">")
        if not arrow:
            raise BadInputError(f"expected 'key > Class args', found {line.text!r}", where)
        key, words = key.strip(), definition.split()
        if words and "=" not in words[0]:
            cls, words = words[0], words[1:]
        args = {**args, **_args(words, where)}
        kids, _ = _children(lines, index)
        if kids:
            for kid in kids:
                sprite_tree(kid, cls, args, stypes + (key,))
            return
        if cls not in SPRITE_CLASSES:
            raise BadInputError(f"sprite class {cls!r} is not one plancheck implements ({', '.join(SPRITE_CLASSES)})",
                                where)
        speed = args.get("speed")
        sprites.append(SpriteType(key, cls, stypes + (key,), None if speed is None else float(speed),
                                   args.get("stype") if cls in ("Chaser", "Fleeing") else None))

    def interaction(line: _Line) -> None:
        where = Location(source, line.number)
        pair, arrow, definition = line.text.partition(">")
        words, names = definition.split(), pair.split()
        if not arrow or len(names) < 2 or not words or words[0] not in EFFECTS:
            raise BadInputError(f"expected 'actor actee > {'|'.join(EFFECTS)} args', found {line.text!r}", where)
        args = _args(words[1:], where)
        for actee in names[1:]:
            effects.append(Effect(names[0], actee, words[0], args.get("scoreChange", 0), args.get("stype")))

    def termination(line: _Line) -> None:
        where = Location(source, line.number)
        words = line.text.split()
        if words[0] != "SpriteCounter":
            raise BadInputError(f"termination {words[0]!r} is not one plancheck implements (SpriteCounter)", where)
        args = _args(words[1:], where)
        terminations.append(Termination(str(args["stype"]), int(args.get("limit", 0)), bool(args.get("win", True))))

    def level_mapping(line: _Line) -> None:
        char, arrow, keys = line.text.partition(">")
        if not arrow or len(char.strip()) != 1:
            raise BadInputError(f"expected 'c > key...', found {line.text!r}", Location(source, line.number))
        mapping[char.strip()] = tuple(keys.split())

    sections, _ = _children(lines, 0)
    for section in sections:
        kids, _ = _children(lines, section)
        name = lines[section].text
        for kid in kids:
            if name == "SpriteSet":
                sprite_tree(kid, None, {}, ())
            elif name == "InteractionSet":
                interaction(lines[kid])
            elif name == "TerminationSet":
                termination(lines[kid])
            elif name == "LevelMapping":
                level_mapping(lines[kid])
            else:
                raise BadInputError(f"unknown section {name!r}", Location(source, lines[section].number))
    return Domain(source, int(header.get("block_size", 1)), tuple(sprites), tuple(effects), tuple(terminations),
                  mapping)


def parse_level(text: str, domain: Domain, source: str = "<level>") -> tuple[tuple[str, int, int], ...]:
    """The sprites a start layout creates, in py-vgdl's creation order (rows top to bottom, cells
    left to right, a cell's keys in mapping order): (key, row, column)."""
    rows = [row for row in text.split("\n") if row]
    if len({len(row) for row in rows}) > 1:
        raise BadInputError("the rows of a level have different lengths", Location(source))
    created = []
    mapping = domain.mapping
    for r, row in enumerate(rows):
        for c, char in enumerate(row):
            keys = mapping.get(char)
            if keys is None:
                raise BadInputError(f"character {char!r} has no LevelMapping", Location(source, r + 1, c + 1))
            for key in keys:
                created.append((key, r, c))
    return tuple(created)


def read_domain(path: Path) -> Domain:
    return parse_domain(path.read_text(encoding="utf-8"), path.name)
