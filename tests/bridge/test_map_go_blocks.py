"""Go's block scopes and type assertions type a method's receiver: real maps of a small
Go repository asked through the real tools on a real AppContext.

A name declared again in a block of the same function (a `range` variable named as the
method's receiver, a closure's parameter named as the test's local, an `if` header's
`x := x.(T)`) is one local per block: each use sees its own block's, so the calls on
both are typed, where the map took them for one name given two values and guessed. A
value read from a map or slice (`one, ok := flags["a"]`, `all[0].Run()`) holds one of
what it holds, and `new(T)`, `make(T, n)` a T (`new(FlagSet).Visit(nil)`).
"""

from __future__ import annotations

from pathlib import Path

from map import CodeMap, MapSettings
from tests.bridge.test_map_completeness import _ask, _callers, _listed, _repo

SOURCES = {
    "go.mod": "module example.com/cli\n\ngo 1.21\n",
    "command.go": (
        "package cli\n\n"  # 1
        "type Command struct{ Name string }\n\n"  # 3
        "type Flag struct{ Name string }\n\n"  # 5
        "type FlagSet struct{}\n\n"  # 7
        "func (c *Command) Run() error { return nil }\n\n"  # 9
        "func (f *Flag) Run() {}\n\n"  # 11
        "func (s *FlagSet) Parse() error { return nil }\n\n"  # 13
        "func (s *FlagSet) Visit(fn func(*Flag)) {}\n\n"  # 15
        "func NewFlagSet() *FlagSet { return &FlagSet{} }\n\n"  # 17
        "func (c *Command) all(chain []*Flag) {\n"  # 19
        "\tfor _, c := range chain {\n"  # 20
        "\t\tc.Run()\n"  # 21
        "\t}\n"  # 22
        "\t_ = c.Run()\n"  # 23
        "}\n\n"  # 24
        "func usage(in interface{}) {\n"  # 26
        "\tc := in.(*Command)\n"  # 27
        "\t_ = c.Run()\n"  # 28
        "\tif f, ok := in.(*Flag); ok {\n"  # 29
        "\t\tf.Run()\n"  # 30
        "\t}\n"  # 31
        "}\n\n"  # 32
        "func check() {\n"  # 34
        "\tf := NewFlagSet()\n"  # 35
        "\tf.Visit(func(f *Flag) {\n"  # 36
        "\t\tf.Run()\n"  # 37
        "\t})\n"  # 38
        "\t_ = f.Parse()\n"  # 39
        "}\n\n"  # 40
        "func lookup(flags map[string]*Flag) {\n"  # 42
        '\tone, ok := flags["a"]\n'  # 43
        "\tif ok {\n"  # 44
        "\t\tone.Run()\n"  # 45
        "\t}\n"  # 46
        "\ts := new(FlagSet)\n"  # 47
        "\t_ = s.Parse()\n"  # 48
        "\tnew(FlagSet).Visit(nil)\n"  # 49
        "\tvar all []*Flag\n"  # 50
        "\tall[0].Run()\n"  # 51
        "}\n"
    ),
}


def test_go_a_local_per_block_types_the_calls_on_each(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", SOURCES)
    command, flag, parse, visit = _ask(
        root,
        _callers("command.go#Command.Run"),
        _callers("command.go#Flag.Run"),
        _callers("command.go#FlagSet.Parse"),
        _callers("command.go#FlagSet.Visit"),
    )
    data = command["data"]
    assert _listed(data) == [("command.go#Command.all", [23]), ("command.go#usage", [28])]
    assert (data["completeness"], data["unresolvedCount"]) == ("complete", 0)
    data = flag["data"]
    assert _listed(data) == [
        ("command.go#Command.all", [21]),
        ("command.go#check", [37]),
        ("command.go#lookup", [45, 51]),
        ("command.go#usage", [30]),
    ]
    assert (data["completeness"], data["unresolvedCount"]) == ("complete", 0)
    data = parse["data"]
    assert _listed(data) == [("command.go#check", [39]), ("command.go#lookup", [48])]
    assert (data["completeness"], data["unresolvedCount"]) == ("complete", 0)
    data = visit["data"]
    assert _listed(data) == [("command.go#check", [36]), ("command.go#lookup", [49])]
    assert (data["completeness"], data["unresolvedCount"]) == ("complete", 0)


def test_go_an_edit_that_adds_a_block_local_relinks_as_a_fresh_build_does(
    tmp_path: Path,
) -> None:
    root = _repo(tmp_path / "repo", SOURCES)
    code_map = CodeMap.open(root, MapSettings(snapshot_dir=str(tmp_path / "store")))
    source = root / "command.go"
    source.write_text(
        source.read_text().replace(
            "\t_ = f.Parse()\n",
            "\tvar fs []*Flag\n\tfor _, f := range fs {\n\t\tf.Run()\n\t}\n\t_ = f.Parse()\n",
        )
    )
    code_map.rebuild()
    edited = code_map.ties("command.go", "Run")
    assert [t.targets for t in edited if t.line == 41] == [("command.go#Flag.Run",)]
    fresh = CodeMap.open(root, MapSettings(snapshot_dir=str(tmp_path / "fresh")))
    assert fresh.ties("command.go", "Run") == edited
    assert [t.targets for t in fresh.ties("command.go", "Parse") if t.line == 43] == [
        ("command.go#FlagSet.Parse",)
    ]


MIDDLEWARE = {
    "go.mod": "module example.com/mux\n\ngo 1.21\n",
    "mux.go": (
        "package mux\n\n"  # 1
        "type middleware interface{ Middleware(h int) int }\n\n"  # 3
        "type auth struct{}\n\n"  # 5
        "func (a auth) Middleware(h int) int { return h }\n\n"  # 7
        "type Router struct{ middlewares []middleware }\n\n"  # 9
        "func (r *Router) Use(f func(int) int) {}\n\n"  # 11
        "func (r *Router) serve() int {\n"  # 13
        "\treturn r.middlewares[0].Middleware(1)\n"  # 14
        "}\n\n"  # 15
        "func setup(r *Router) {\n"  # 17
        "\ta := auth{}\n"  # 18
        "\tr.Use(a.Middleware)\n"  # 19
        "}\n"
    ),
}
"""`serve` calls the interface's `Middleware` (line 14); `setup` takes `auth`'s as a
value (line 19): gopls counts both for the interface method, and the first for auth's."""


def test_go_an_interface_method_s_callers_include_its_implementers(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", MIDDLEWARE)
    interface, concrete = _ask(
        root, _callers("mux.go#middleware.Middleware"), _callers("mux.go#auth.Middleware")
    )
    data = interface["data"]
    assert _listed(data) == [("mux.go#Router.serve", [14]), ("mux.go#setup", [19])]
    assert (data["completeness"], data["unresolvedCount"]) == ("complete", 0)
    data = concrete["data"]
    assert _listed(data) == [("mux.go#setup", [19]), ("mux.go#Router.serve", [14])]
    assert (data["completeness"], data["unresolvedCount"]) == ("complete", 0)


GROUPS = {
    "go.mod": "module example.com/gx\n\ngo 1.21\n",
    "gx.go": (
        "package gx\n\n"  # 1
        "type Router interface{ Use(x int) }\n\n"  # 3
        "type Mux struct{}\n\n"  # 5
        "func (m *Mux) Use(x int) {}\n\n"  # 7
        "func (m *Mux) Group(fn func(r Router)) { fn(m) }\n\n"  # 9
        "func setup() {\n"  # 11
        "\tm := &Mux{}\n"  # 12
        "\tm.Use(1)\n"  # 13
        "\tm.Group(func(r Router) {\n"  # 14
        "\t\tr.Use(2)\n"  # 15
        "\t})\n"  # 16
        "\tm.Use(3)\n"  # 17
        "}\n"
    ),
}
"""`setup` calls `Mux.Use` directly (lines 13, 17) and through `Router` (line 15, in a
closure of its own)."""


def test_go_a_caller_of_a_method_and_of_its_interface_lists_every_call_line(
    tmp_path: Path,
) -> None:
    root = _repo(tmp_path / "repo", GROUPS)
    (answer,) = _ask(root, _callers("gx.go#Mux.Use"))
    data = answer["data"]
    assert _listed(data) == [("gx.go#setup", [13, 15, 17])]
    assert data["completeness"] == "complete"
