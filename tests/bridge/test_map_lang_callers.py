"""Callers in Ruby, PHP, Rust and Lua as each language binds a name: real maps of small
repositories asked through the real tools on a real AppContext; the truth is each
fixture's, checked by hand against the language's rules (no server for these here).

Ruby: a bare call in a subclass names its base's method, and so does a method called
without arguments or parentheses (`warn "up" if ping`), unless a local holds that name.
PHP and Rust: a bare call inside a class or an `impl` is never one of its methods (PHP's
`unlink($path)` is the builtin, Rust's `new()` the free function). Java: a typed
parameter, local or field holds its type (`xs.get(0)` on a `List` is java.util's,
`c.get(k)` on a `Cache` ours); so in Rust (`m.get` on std's `HashMap`, `cfg.get` on
`let cfg = Config::new()`, `c.get` on `c: &Config`). C#: a call on a capitalized name
no file defines is a library type's (`Enum.GetValues`), not our `GetValues`. Lua: a required
module is the table it returns, a file's own table holds the functions defined on it,
and the standard library's tables (`coroutine.wrap`) are not ours. Each answer lists
its callers exactly and says `complete`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bridge.tools.mapgraph import map_neighbors
from tests.bridge.test_map_completeness import _ask, _repo

RUBY = {
    "lib/base.rb": (
        "class Base\n  def debug(msg)\n    msg\n  end\n\n  def ping\n    true\n  end\nend\n"
    ),
    "lib/app.rb": (
        'require_relative "base"\n\n'
        "class App < Base\n"
        "  def run(ping2)\n"
        '    debug "start"\n'
        '    warn "up" if ping\n'
        "    ready? && ping2\n"
        "  end\n\n"
        "  def ready?\n"
        "    debug = 1\n"
        "    debug + 1\n"
        "  end\n"
        "end\n"
    ),
}
PHP = {
    "src/Files.php": (
        "<?php\nnamespace App;\n\n"
        "class Files {\n"
        "    public function unlink($path) { return unlink($path); }\n"
        "    public function clean($p) { return $this->unlink($p); }\n"
        "}\n"
    ),
}
RUST = {
    "Cargo.toml": '[package]\nname = "p"\nversion = "0.1.0"\n',
    "src/lib.rs": (
        "pub fn new() -> u32 { 1 }\n\n"
        "pub struct Parser { n: u32 }\n\n"
        "impl Parser {\n"
        "    pub fn new() -> Parser { Parser { n: new() } }\n"
        "    pub fn parse(&self) -> u32 { self.n }\n"
        "    pub fn again() -> Parser { Self::new() }\n"
        "}\n"
    ),
}
JAVA = {
    "src/main/java/a/Cache.java": (
        "package a;\n\n"
        "import java.util.HashMap;\nimport java.util.List;\nimport java.util.Map;\n\n"
        "public class Cache {\n"
        "    private final Map<String, String> data = new HashMap<>();\n\n"
        "    public String get(String k) { return data.get(k); }\n\n"
        "    public String fetch(String k) { Cache c = new Cache(); return c.get(k); }\n\n"
        "    public String other(List<String> xs) { return xs.get(0); }\n\n"
        "    public Long local() { var m = new HashMap<String, Long>(); return m.get(k()); }\n\n"
        "    public String self(String k) { return get(k) + this.get(k); }\n\n"
        '    private String k() { return "k"; }\n'
        "}\n"
    ),
}
RUST_TYPED = {
    "Cargo.toml": RUST["Cargo.toml"],
    "src/lib.rs": (
        "use std::collections::HashMap;\n"
        "\n"
        "pub struct Config { items: HashMap<String, String> }\n"
        "\n"
        "impl Config {\n"
        "    pub fn new() -> Config { Config { items: HashMap::new() } }\n"
        "    pub fn get(&self, k: &str) -> Option<&String> { self.items.get(k) }\n"
        "}\n"
        "\n"
        "pub fn load(c: &Config) -> usize {\n"
        "    let m: HashMap<String, String> = HashMap::new();\n"
        "    let cfg = Config::new();\n"
        '    m.get("a");\n'
        '    cfg.get("b");\n'
        '    c.get("c").map(|s| s.len()).unwrap_or(0)\n'
        "}\n"
    ),
}
CSHARP = {
    "Enums.cs": (
        "using System;\n"
        "\n"
        "namespace App\n"
        "{\n"
        "    public class Lister\n"
        "    {\n"
        "        public static string[] GetValues(Type t) { return Enum.GetNames(t); }\n"
        "\n"
        "        public object[] All() { return (object[])Enum.GetValues(typeof(Lister)); }\n"
        "\n"
        "        public string[] Mine() { return Lister.GetValues(typeof(Lister)); }\n"
        "    }\n"
        "}\n"
    ),
}
LUA = {
    "pl/stringx.lua": (
        "local stringx = {}\n"
        "function stringx.wrap(s, width) return s end\n"
        "function stringx.shorten(s) return stringx.wrap(s, 3) end\n"
        "return stringx\n"
    ),
    "app.lua": (
        "local stringx = require 'pl.stringx'\n"
        "local co = coroutine.wrap(function() end)\n"
        'print(stringx.wrap("a", 2))\n'
    ),
}


def _callers(sources: dict[str, str], tmp_path: Path, *node_ids: str) -> list[dict[str, Any]]:
    root = _repo(tmp_path / "repo", sources)
    calls = {"direction": "in", "kinds": ["calls"]}
    asked = [(map_neighbors, {"node_id": node_id, **calls}) for node_id in node_ids]
    return [answer["data"] for answer in _ask(root, *asked)]


@pytest.mark.parametrize(
    ("sources", "asked"),
    [
        (
            RUBY,
            {
                "lib/base.rb#Base.debug": [("lib/app.rb#App.run", [5])],
                "lib/base.rb#Base.ping": [("lib/app.rb#App.run", [6])],
                "lib/app.rb#App.ready?": [("lib/app.rb#App.run", [7])],
            },
        ),
        (PHP, {"src/Files.php#Files.unlink": [("src/Files.php#Files.clean", [6])]}),
        (
            JAVA,
            {
                "src/main/java/a/Cache.java#Cache.get": [
                    ("src/main/java/a/Cache.java#Cache.fetch", [12]),
                    ("src/main/java/a/Cache.java#Cache.self", [18]),
                ]
            },
        ),
        (
            RUST,
            {
                "src/lib.rs#new": [("src/lib.rs#Parser.new", [6])],
                "src/lib.rs#Parser.new": [("src/lib.rs#Parser.again", [8])],
            },
        ),
        (CSHARP, {"Enums.cs#Lister.GetValues": [("Enums.cs#Lister.Mine", [11])]}),
        (RUST_TYPED, {"src/lib.rs#Config.get": [("src/lib.rs#load", [14, 15])]}),
        (
            LUA,
            {
                "pl/stringx.lua#stringx.wrap": [
                    ("app.lua", [3]),
                    ("pl/stringx.lua#stringx.shorten", [3]),
                ]
            },
        ),
    ],
    ids=["ruby", "php", "java", "csharp", "rust", "rust-typed", "lua"],
)
def test_callers_follow_the_language_s_own_binding(
    tmp_path: Path, sources: dict[str, str], asked: dict[str, list[tuple[str, list[int]]]]
) -> None:
    answers = _callers(sources, tmp_path, *asked)
    assert {
        node_id: [(n["nodeId"], n["at"]) for n in data["neighbors"]]
        for node_id, data in zip(asked, answers, strict=True)
    } == asked
    assert [data["completeness"] for data in answers] == ["complete"] * len(asked)
