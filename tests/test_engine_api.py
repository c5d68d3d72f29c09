"""The engine's public face: its docstring examples run, and ``__all__`` says what each public
module offers (issue 14.3).

The examples are run with :mod:`doctest` over every module of ``rules/`` (the same as
``pytest --doctest-modules rules``, but inside the ordinary test run, so the quick loop and
``.ci/run`` both run them).
"""

from __future__ import annotations

import ast
import doctest
import importlib
import pkgutil
from pathlib import Path
from types import ModuleType

import pytest

import rules

ROOT = Path(rules.__file__).parent

PUBLIC = (
    "rules.errors",
    "rules.notation",
    "rules.pieces",
    "rules.melds",
    "rules.options",
    "rules.variant",
    "rules.table",
    "rules.verdict",
    "rules.messages",
    "rules.scoring",
    "rules.judge",
    "rules.search.deadwood",
    "rules.search.split",
    "rules.variants.rummy101",
    "rules.variants.tiles",
    "rules.variants.gin",
    "rules.variants.carousel",
)
"""The modules other code (the app, other programs) imports from."""


def engine_modules() -> list[str]:
    names = ["rules"]
    for info in pkgutil.walk_packages([str(ROOT)], prefix="rules."):
        if info.name != "rules.__main__":
            names.append(info.name)
    return sorted(names)


def test_every_docstring_example_of_the_engine_holds() -> None:
    attempted, failed = 0, []
    for name in engine_modules():
        module = importlib.import_module(name)
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
        attempted += result.attempted
        if result.failed:
            failed.append(f"{name}: {result.failed} of {result.attempted}")
    assert not failed, failed
    assert attempted >= 5  # the examples in variant, options, melds, verdict and rummy101


def defined_functions_and_classes(module: ModuleType) -> set[str]:
    """Public functions and classes written in the module itself (not imported into it).
    Constants and type aliases are listed in ``__all__`` as the module chooses."""
    assert module.__file__ is not None
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    return {
        node.name
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        and not node.name.startswith("_")
    }


@pytest.mark.parametrize("name", PUBLIC)
def test_public_module_declares_what_it_offers(name: str) -> None:
    module = importlib.import_module(name)
    declared = getattr(module, "__all__", None)
    assert isinstance(declared, list), f"{name} has no __all__"
    assert len(declared) == len(set(declared)), "a name listed twice"
    missing = [n for n in declared if not hasattr(module, n)]
    assert not missing, f"{name}.__all__ names what is not there: {missing}"
    unlisted = sorted(defined_functions_and_classes(module) - set(declared))
    assert not unlisted, f"{name} defines public functions/classes missing from __all__: {unlisted}"


def test_the_engine_says_it_is_typed() -> None:
    assert (ROOT / "py.typed").is_file()  # PEP 561: type checkers read rules/ from a wheel
