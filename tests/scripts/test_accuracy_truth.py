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


def test_ruby_method_calls_with_and_without_arguments_and_what_is_not_one(
    truth_module: ModuleType, tmp_path: Path
) -> None:
    root = _write(
        tmp_path,
        {
            "lib/cart.rb": (
                "class Cart\n"
                "  def total\n"
                "    1\n"
                "  end\n"
                "  def report(total = nil)\n"
                "    total\n"
                "  end\n"
                "  def show\n"
                "    self.total\n"
                "    total\n"
                "    puts total + 1\n"
                "  end\n"
                "  alias sum total\n"
                "end\n"
            ),
            "lib/shop.rb": "class Shop < Cart\n  def run\n    total\n    cart.total\n  end\nend\n",
        },
    )
    found = _uses(truth_module, root, "ruby", "Cart.total", "lib/cart.rb", (2, 4))
    # the local `total` of report is no call; `alias` names it without calling it; a
    # plain call in another class (a subclass, or a mixin's user) is only maybe it
    assert found == {
        "lib/cart.rb:2",
        "lib/cart.rb:9()",
        "lib/cart.rb:10()",
        "lib/cart.rb:11()",
        "lib/cart.rb:13",
        "lib/shop.rb:3?()",
        "lib/shop.rb:4?()",
    }


def test_a_ruby_attribute_makes_its_name_ambiguous(
    truth_module: ModuleType, tmp_path: Path
) -> None:
    root = _write(
        tmp_path,
        {"a.rb": "class A\n  attr_accessor :env\nend\n", "b.rb": "class B\n  def env; end\nend\n"},
    )
    assert truth_module.Truth(root, "ruby").ambiguous("env")


def test_php_methods_are_reached_through_a_receiver_and_variables_are_not_names(
    truth_module: ModuleType, tmp_path: Path
) -> None:
    root = _write(
        tmp_path,
        {
            "src/Fs.php": (
                "<?php\nclass Fs\n{\n"
                "    public function unlink($path) { return unlink($path); }\n"
                "    public function clean() { $unlink = 1; $this->unlink('a'); }\n"
                "}\n"
            ),
            "src/Use.php": "<?php\n$fs->unlink('b');\nFs::unlink('c');\n",
        },
    )
    found = _uses(truth_module, root, "php", "Fs.unlink", "src/Fs.php", (4, 4))
    assert found == {"src/Fs.php:4", "src/Fs.php:5()", "src/Use.php:2?()", "src/Use.php:3()"}


@pytest.mark.parametrize(
    ("language", "files", "expected"),
    [
        (
            "csharp",
            {
                "A.cs": "class A {\n  void m() { }\n  void N() { m(); this.m(); }\n}\n",
                "B.cs": "class B : A {\n  void O() { m(); a.m(); Enum.m(); }\n}\n",
            },
            {"A.cs:2", "A.cs:3()", "B.cs:2?()"},
        ),
        (
            "kotlin",
            {
                "A.kt": "class A {\n  fun m() { }\n  fun n() { m(); this.m() }\n}\n",
                "B.kt": "fun o(a: A) {\n  a.m()\n  val m = 1\n}\n",
            },
            {"A.kt:2", "A.kt:3()", "B.kt:2?()"},
        ),
        (
            "swift",
            {
                "A.swift": "class A {\n  func m() { }\n  func n() { m(); self.m() }\n}\n",
                "B.swift": "extension A {\n  func o() { m() }\n}\nfunc p() { a.m() }\n",
            },
            {"A.swift:2", "A.swift:3()", "B.swift:2()", "B.swift:4?()"},
        ),
        (
            "scala",
            {
                "A.scala": "class A {\n  def m(x: Int): Int = x\n  def n = m(1)\n}\n",
                "B.scala": "object B {\n  def o(a: A) = a m 2\n  val p = Seq.m(3)\n}\n",
            },
            {"A.scala:2", "A.scala:3()", "B.scala:2?()"},
        ),
    ],
)
def test_methods_their_types_call_by_plain_name(
    truth_module: ModuleType,
    tmp_path: Path,
    language: str,
    files: dict[str, str],
    expected: set[str],
) -> None:
    # A plain call inside the type (or an extension of it) is the method; elsewhere
    # maybe (an inherited call); a member of a standard type is another method.
    root = _write(tmp_path, files)
    path = next(iter(files))
    assert _uses(truth_module, root, language, "A.m", path, (2, 2)) == expected


def test_lua_module_functions_and_what_shadows_them(
    truth_module: ModuleType, tmp_path: Path
) -> None:
    root = _write(
        tmp_path,
        {
            "pl/text.lua": (
                "local text = {}\n"
                "function text.wrap(s) return s end\n"
                "local function g() local wrap = 1; return wrap end\n"
                "return text\n"
            ),
            "use.lua": (
                'local text = require "pl.text"\ntext.wrap("a")\ncoroutine.wrap(f)\nwrap(1)\n'
            ),
        },
    )
    found = _uses(truth_module, root, "lua", "text.wrap", "pl/text.lua", (2, 2))
    assert found == {"pl/text.lua:2", "use.lua:2()"}


def test_shell_functions_are_command_names_not_arguments(
    truth_module: ModuleType, tmp_path: Path
) -> None:
    root = _write(
        tmp_path,
        {
            "lib.sh": '_info() {\n  echo "$1"\n}\n',
            "run.sh": ". ./lib.sh\n_info start\necho _info\nx=$(_info done)\n",
        },
    )
    found = _uses(truth_module, root, "bash", "_info", "lib.sh", (1, 3))
    assert found == {"lib.sh:1", "run.sh:2()", "run.sh:4()"}
