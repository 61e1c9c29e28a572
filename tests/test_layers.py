"""The shape of the package stays true: imports run one way, generic layers know no world, worlds know no other.

Layers, lowest first (a module may import its own layer and those below it):
errors, rules, limits, version <- translators, drawing <- verifier, files <- solvers, episodes <- world <- domains
<- registry <- cli, demo, api, pictures, integrations (the harness integrations reach worlds through the registry and
the API only).
Inside ``domains``, a world imports its own package and its family's shared modules
(``domains/smartplay/_frame.py``, ``domains/langsuite/engine/``), never another world.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from plancheck.registry import WORLDS, world_names, world_package

PACKAGE = Path(__file__).resolve().parent.parent / "plancheck"
LAYERS = (
    ("plancheck.errors", "plancheck.rules", "plancheck.limits", "plancheck.version"),
    ("plancheck.translators", "plancheck.drawing"),
    ("plancheck.verifier", "plancheck.files"),
    ("plancheck.solvers", "plancheck.episodes"),
    ("plancheck.world",),
    ("plancheck.domains",),
    ("plancheck.registry",),
    ("plancheck.cli", "plancheck.demo", "plancheck.api", "plancheck.pictures", "plancheck.integrations",
     "plancheck.__main__", "plancheck"),
)
GENERIC = ("translators", "solvers", "verifier", "episodes", "drawing", "integrations")


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every plancheck module ``path`` imports (lazy imports inside functions included), with its line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found += [(node.lineno, node.module)] + [(node.lineno, f"{node.module}.{a.name}") for a in node.names]
    return [(line, name) for line, name in found if name == "plancheck" or name.startswith("plancheck.")]


def _layer(module: str) -> int:
    best = None
    for rank, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (best is None or len(prefix) > best[1]):
                best = (rank, len(prefix))
    assert best is not None, module
    return best[0]


def _is_module(name: str) -> bool:
    """Whether ``name`` is a plancheck module or package (not a name imported from one)."""
    path = PACKAGE.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_run_one_way(path):
    here = _module_name(path)
    wrong = [f"line {line}: {name}" for line, name in _imports(path)
             if _is_module(name) and _layer(name) > _layer(here)]
    assert not wrong, f"{here} imports from a higher layer: {wrong}"


def test_generic_layers_import_no_world_and_carry_no_world_name():
    worlds = set(world_names()) | {"smartplay", "langsuite"}
    offenders = []
    for layer in GENERIC:
        for path in sorted((PACKAGE / layer).rglob("*")):
            if path.suffix not in (".py", ".lark"):
                continue
            stem_words = set(path.stem.split("_"))
            if stem_words & worlds:
                offenders.append(f"{path.relative_to(PACKAGE)}: a world's name in a generic file name")
            if path.suffix == ".py":
                offenders += [f"{path.relative_to(PACKAGE)}, line {line}: imports {name}"
                              for line, name in _imports(path) if name.startswith("plancheck.domains")]
    assert not offenders, offenders


def _family(package: str) -> str:
    """``plancheck.domains.smartplay`` for a SmartPlay game; the world's own package for a lone world."""
    parts = package.split(".")
    return ".".join(parts[:3]) if len(parts) > 3 else package


@pytest.mark.parametrize("name", world_names())
def test_a_world_imports_no_other_world(name):
    own = world_package(name)
    family = _family(own)
    others = [world_package(other) for other in WORLDS if world_package(other) != own]
    root = PACKAGE.parent.joinpath(*own.split("."))
    wrong = []
    for path in sorted(root.rglob("*.py")):
        for line, imported in _imports(path):
            if not imported.startswith("plancheck.domains"):
                continue
            if any(imported == o or imported.startswith(o + ".") for o in others):
                wrong.append(f"{path.relative_to(PACKAGE)}, line {line}: {imported}")
            elif not (imported.startswith(own) or imported == family or imported.startswith(family + ".")):
                wrong.append(f"{path.relative_to(PACKAGE)}, line {line}: {imported} (outside its family)")
    assert not wrong, wrong


def test_the_layer_table_knows_every_module():
    for path in _modules():
        _layer(_module_name(path))  # fails on a module that belongs to no layer
