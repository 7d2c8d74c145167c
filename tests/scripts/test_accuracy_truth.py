"""The accuracy benchmark's ground truth: which occurrences of a name can mean a symbol.

A wrong truth would blame a language server (or codeanchor) for misses that are
not misses; these cases pin what the parse can tell.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


@pytest.fixture
def truth_module(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(SCRIPTS))
    return importlib.import_module("accuracy.truth")


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def _uses(
    truth_module: ModuleType,
    root: Path,
    language: str,
    symbol: str,
    path: str,
    lines: tuple[int, int],
) -> set[str]:
    """What the truth counts as uses of `symbol` (`name`, or `Class.name` for a
    member) defined at `lines` of `path`: `path:LINE`, then `?` when only maybe
    the symbol, `()` when a call."""
    container, _, name = symbol.rpartition(".")
    wanted = truth_module.Wanted(
        name=name, member=bool(container), container=container, path=path, lines=lines
    )
    found = truth_module.Truth(root, language).occurrences(wanted)
    return {f"{o.path}:{o.line}{'' if o.direct else '?'}{'()' if o.is_call else ''}" for o in found}


def test_python_function_uses_count_and_other_meanings_do_not(
    truth_module: ModuleType, tmp_path: Path
) -> None:
    root = _write(
        tmp_path,
        {
            "pkg/tools.py": "def render(x):\n    return x\n",
            "pkg/use.py": (
                "from pkg import tools\n"
                "from pkg.tools import render\n"
                "# render in a comment\n"
                "s = 'render in a string'\n"
                "render(1)\n"
                "tools.render(2)\n"
                "obj.render(3)\n"
                "f(render=4)\n"
                "def g(render):\n"
                "    return render\n"
            ),
            "other.py": "from jinja2 import render\nrender(5)\n",
        },
    )
    found = _uses(truth_module, root, "python", "render", "pkg/tools.py", (1, 2))
    assert found == {"pkg/tools.py:1", "pkg/use.py:2", "pkg/use.py:5()", "pkg/use.py:6()"}


def test_python_method_uses_are_direct_only_through_self_or_its_class(
    truth_module: ModuleType, tmp_path: Path
) -> None:
    root = _write(
        tmp_path,
        {
            "app.py": (
                "class Base:\n"
                "    def dispatch(self):\n"
                "        return 1\n"
                "class App(Base):\n"
                "    def dispatch(self):\n"
                "        return super().dispatch()\n"
                "    def run(self):\n"
                "        self.dispatch()\n"
                "        App.dispatch(self)\n"
                "def main(app):\n"
                "    dispatch = 1\n"
                "    app.dispatch()\n"
            ),
        },
    )
    found = _uses(truth_module, root, "python", "App.dispatch", "app.py", (5, 6))
    # the def lines count (both: the parse cannot tell the two methods apart), super()
    # inside its own body is the base's, a plain local is no method, `app` is untyped
    assert found == {"app.py:2", "app.py:5", "app.py:8()", "app.py:9()", "app.py:12?()"}


def test_python_names_assigned_as_attributes_are_ambiguous(
    truth_module: ModuleType, tmp_path: Path
) -> None:
    root = _write(
        tmp_path, {"m.py": "class A:\n    def __init__(self):\n        self.items = {}\n"}
    )
    truth = truth_module.Truth(root, "python")
    assert truth.ambiguous("items")
    assert truth.ambiguous("m")  # a module of the project
    assert not truth.ambiguous("A")


def test_go_package_members_are_not_the_project_function(
    truth_module: ModuleType, tmp_path: Path
) -> None:
    root = _write(
        tmp_path,
        {
            "mux.go": (
                "package mux\n"
                'import "net/http"\n'
                "type Router struct{}\n"
                "func (r *Router) HandleFunc(p string) {}\n"
                "func use(r *Router) {\n"
                '    http.HandleFunc("/", nil)\n'
                '    r.HandleFunc("/")\n'
                "}\n"
            ),
        },
    )
    found = _uses(truth_module, root, "go", "Router.HandleFunc", "mux.go", (4, 4))
    assert found == {"mux.go:4", "mux.go:7?()"}


def test_typescript_globals_and_namespace_members_are_not_a_method(
    truth_module: ModuleType, tmp_path: Path
) -> None:
    root = _write(
        tmp_path,
        {
            "mocker.ts": (
                'import { z } from "./index.js";\n'
                "export class Mocker {\n"
                "  get bigint() { return 1; }\n"
                "  parse(s: string) { return JSON.parse(s); }\n"
                "}\n"
                "const m = new Mocker();\n"
                "m.bigint;\n"
                "z.bigint();\n"
                "this.parse('1');\n"
            ),
        },
    )
    bigint = _uses(truth_module, root, "typescript", "Mocker.bigint", "mocker.ts", (3, 3))
    parse = _uses(truth_module, root, "typescript", "Mocker.parse", "mocker.ts", (4, 4))
    assert bigint == {"mocker.ts:3", "mocker.ts:7?"}
    assert parse == {"mocker.ts:4", "mocker.ts:9()"}


def test_typescript_names_the_map_has_no_symbol_for_are_ambiguous(
    truth_module: ModuleType, tmp_path: Path
) -> None:
    root = _write(
        tmp_path,
        {
            "kinds.ts": (
                'export enum Kind { ZodTuple = "ZodTuple" }\n'
                "interface Def { shape: () => number }\n"
                "class Box { size = 1 }\n"
                "function pick<Types>(t: Types): Types { return t; }\n"
                "export class ZodObject {}\n"
            ),
        },
    )
    truth = truth_module.Truth(root, "typescript")
    assert [truth.ambiguous(n) for n in ("ZodTuple", "shape", "size", "Types")] == [True] * 4
    assert not truth.ambiguous("ZodObject")


def test_a_method_through_its_imported_class_counts_through_a_namespace_not(
    truth_module: ModuleType, tmp_path: Path
) -> None:
    root = _write(
        tmp_path,
        {
            "app.py": "class App:\n    def dispatch(self):\n        return 1\n",
            "use.py": "from app import App\nimport app\nApp.dispatch(x)\napp.dispatch()\n",
        },
    )
    found = _uses(truth_module, root, "python", "App.dispatch", "app.py", (2, 3))
    assert found == {"app.py:2", "use.py:3()"}


def test_a_namesake_reached_through_a_foreign_package_does_not_count(
    truth_module: ModuleType, tmp_path: Path
) -> None:
    root = _write(
        tmp_path,
        {
            "helpers.py": (
                "import werkzeug.utils\n"
                "def send_from_directory(d):\n"
                "    return werkzeug.utils.send_from_directory(d)\n"
            ),
        },
    )
    found = _uses(truth_module, root, "python", "send_from_directory", "helpers.py", (2, 3))
    assert found == {"helpers.py:2"}


def test_go_struct_fields_and_interface_methods_are_ambiguous(
    truth_module: ModuleType, tmp_path: Path
) -> None:
    root = _write(
        tmp_path,
        {
            "m.go": (
                "package m\n"
                "type matcher interface { Match(x int) bool }\n"
                "type case_ struct { matcher matcher }\n"
            ),
        },
    )
    truth = truth_module.Truth(root, "go")
    assert truth.ambiguous("matcher")
    assert truth.ambiguous("Match")


def test_a_local_named_like_a_method_is_not_the_method(
    truth_module: ModuleType, tmp_path: Path
) -> None:
    root = _write(
        tmp_path,
        {
            "s.ts": (
                "export class ZodString {\n"
                "  time() { return this; }\n"
                "}\n"
                'test("time parsing", () => {\n'
                "  const time = new ZodString().time();\n"
                "  time.time();\n"
                "});\n"
            ),
        },
    )
    found = _uses(truth_module, root, "typescript", "ZodString.time", "s.ts", (2, 2))
    assert found == {"s.ts:2", "s.ts:5?()", "s.ts:6?()"}


def test_function_like_macros_are_known(truth_module: ModuleType, tmp_path: Path) -> None:
    root = _write(tmp_path, {"e.c": "#define GET_TC(t) ((t)->prv)\nint get(int t) { return t; }\n"})
    truth = truth_module.Truth(root, "c")
    assert truth.defines_macro("e.c", 1)
    assert not truth.defines_macro("e.c", 2)
