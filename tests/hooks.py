"""The book's mkdocs hooks (docs/hooks/*.py), loaded as mkdocs loads them:
from their files, as modules of their own, for the tests that read them."""
from __future__ import annotations

import importlib.util
from pathlib import Path

HOOKS = Path(__file__).resolve().parent.parent / "docs" / "hooks"


def load_hook(name: str):
    """docs/hooks/NAME.py as a fresh module."""
    spec = importlib.util.spec_from_file_location(
        f"{name}_hook_under_test", HOOKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
