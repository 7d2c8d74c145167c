"""No stale answer with any server: an outside edit, then at once (no sleep) a query.

One matrix: every case below runs against every server (ty, pyright,
typescript-language-server, clangd, gopls, intelephense, bash-language-server;
callers where the server answers the call hierarchy), one session per server
for the whole module, on a private copy of the server's fixture. Each case has its own files
and a function name of its own; the files that exist before the server starts
are committed to git and an hour old, as in a real checkout. The queries open
a case's `_def` and `_use` files, never its `_far` one, so every edit reaches
both an open document and a file the server only knows from the disk. The
expected references are the textual occurrences of the case's function name,
which in these files are exactly its uses (definition, imports or prototypes,
calls).
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from string import Template

import pytest

from tests.gitrepo import commit_all, git
from tests.lsp.conftest import Live, open_live
from tests.lsp.realserver import PATIENT, insert_lines_at_top, places, rewrite_keeping_mtime


@dataclass(frozen=True)
class Lang:
    """How to write small source files for one server's fixture."""

    server: str
    language: str
    fixture: str
    folder: str
    """Where the cases' files go (inside the fixture's project)."""
    suffix: str
    comment: str
    preamble: str
    """What every file starts with."""
    define: Template
    """A function `$name` that calls nothing."""
    use: Template
    """A function `$caller` calling `$name`, which the file `$stem` defines, with
    what the call needs before it (an import, a prototype)."""
    module: str = "$stem"
    """How `use` names the file `$stem` (a module path, an import specifier)."""
    callers: bool = True
    """Whether the server answers the call hierarchy (intelephense and
    bash-language-server do not)."""


LANGS = (
    *(
        Lang(
            server=server,
            language="python",
            fixture="py_app",
            folder="app/",
            suffix=".py",
            comment="#",
            preamble="",
            define=Template("def $name() -> int:\n    return 0\n"),
            use=Template(
                "from $module import $name\n\n\ndef $caller() -> int:\n    return $name()\n"
            ),
            module="app.$stem",
        )
        for server in ("ty", "pyright")
    ),
    Lang(
        server="typescript-language-server",
        language="typescript",
        fixture="ts_app",
        folder="src/",
        suffix=".ts",
        comment="//",
        preamble="",
        define=Template("export function $name(): number {\n  return 0;\n}\n"),
        use=Template(
            'import { $name } from "$module";\n\n'
            "export function $caller(): number {\n  return $name();\n}\n"
        ),
        module="./$stem",
    ),
    Lang(
        server="clangd",
        language="c",
        fixture="c_app",
        folder="src/",
        suffix=".c",
        comment="//",
        preamble="",
        define=Template("int $name(void) {\n  return 0;\n}\n"),
        use=Template("int $name(void);\n\nint $caller(void) {\n  return $name();\n}\n"),
    ),
    Lang(
        server="gopls",
        language="go",
        fixture="go_app",
        folder="",
        suffix=".go",
        comment="//",
        preamble="package main\n\n",
        define=Template("func $name() int {\n\treturn 0\n}\n"),
        use=Template("func $caller() int {\n\treturn $name()\n}\n"),
    ),
    Lang(
        server="intelephense",
        language="php",
        fixture="php_app",
        folder="src/",
        suffix=".php",
        # Lines put above `<?php` are the file's leading text, as a comment would be
        # elsewhere; so the functions live in the global namespace (a namespace must
        # be a file's first statement).
        comment="//",
        preamble="<?php\n\n",
        define=Template("function $name(): int\n{\n    return 0;\n}\n"),
        use=Template("function $caller(): int\n{\n    return $name();\n}\n"),
        callers=False,
    ),
    Lang(
        server="bash-language-server",
        language="bash",
        fixture="sh_app",
        folder="",
        suffix=".sh",
        comment="#",
        preamble="",
        define=Template("$name() {\n  echo 0\n}\n"),
        use=Template("source ./$module.sh\n\n$caller() {\n  $name\n}\n"),
        callers=False,
    ),
)


def _word(name: str) -> re.Pattern[str]:
    return re.compile(rf"\b{re.escape(name)}\b")


@dataclass
class Tree:
    """A fixture copy that a server serves, and the cases' files in it."""

    lang: Lang
    live: Live

    @property
    def root(self) -> Path:
        return self.live.root

    def path(self, stem: str) -> str:
        return f"{self.lang.folder}{stem}{self.lang.suffix}"

    def function(self, name: str) -> str:
        return self.lang.define.substitute(name=name)

    def caller(self, caller: str, name: str, stem: str) -> str:
        """`caller`, calling `name` of the file `stem`."""
        module = Template(self.lang.module).substitute(stem=stem)
        return self.lang.use.substitute(caller=caller, name=name, module=module)

    def text(self, *parts: str) -> str:
        """A file holding `parts`, in order."""
        return self.lang.preamble + "\n".join(parts)

    def write(self, stem: str, *parts: str) -> None:
        (self.root / self.path(stem)).write_text(self.text(*parts), encoding="utf-8")

    def pair(self, name: str) -> None:
        """`<name>_def` defining `name` (then another function), `<name>_use` calling
        it, and `<name>_far` calling it too (then another function): the queries of
        `assert_fresh` open the first two, never the third."""
        self.write(f"{name}_def", *self.defining(name))
        self.write(f"{name}_use", self.caller(f"{name}_caller", name, f"{name}_def"))
        self.write(f"{name}_far", *self.far(name))

    def defining(self, name: str) -> tuple[str, str]:
        """The two functions of `<name>_def`, in order."""
        return self.function(name), self.function(f"{name}_idle_a")

    def far(self, name: str) -> tuple[str, str]:
        """The two functions of `<name>_far`, in order."""
        caller = self.caller(f"{name}_far_caller", name, f"{name}_def")
        return caller, self.function(f"{name}_idle_b")

    def occurrences(self, name: str) -> set[tuple[str, int]]:
        """(path, line) of every occurrence of `name` in the tree's source files."""
        word = _word(name)
        found = set()
        for folder, dirs, files in os.walk(self.root):
            dirs[:] = [d for d in dirs if not d.startswith(".") and d != "node_modules"]
            for file in files:
                if file.endswith(self.lang.suffix):
                    path = Path(folder, file)
                    rel = path.relative_to(self.root).as_posix()
                    lines = path.read_text(encoding="utf-8").splitlines()
                    found |= {(rel, n) for n, text in enumerate(lines, 1) if word.search(text)}
        return found

    def spot(self, stem: str, name: str, *, last: bool = False) -> tuple[str, int, int]:
        """The query position of the first (or last) `name` in the file `stem`."""
        path = self.path(stem)
        lines = (self.root / path).read_text(encoding="utf-8").splitlines()
        word = _word(name)
        hits = [(n, m.start()) for n, text in enumerate(lines) for m in word.finditer(text)]
        line, column = hits[-1] if last else hits[0]
        return path, line, column

    def references(self, name: str, pair: str = "") -> set[tuple[str, int]]:
        """Places of the references to `name`, asked where `<pair>_def` defines it."""
        at = self.spot(f"{pair or name}_def", name)
        return places(self.live.run(self.live.pool.references(*at)))

    def assert_fresh(self, name: str, pair: str = "") -> None:
        """References to `name` are exactly its occurrences on disk now, and the
        definition of its call in `<pair>_use` is where `<pair>_def` defines it now."""
        pair = pair or name
        assert self.references(name, pair) == self.occurrences(name)
        path, line, _ = self.spot(f"{pair}_def", name)
        call = self.spot(f"{pair}_use", name, last=True)
        assert places(self.live.run(self.live.pool.definition(*call))) == {(path, line + 1)}


def _before_start(tree: Tree) -> None:
    """The cases' files that exist (committed, an hour old) before the server starts."""
    for name in ("ins", "ren_old", "nv", "nf", "gone", "mk", "ms", "qw", "gc"):
        tree.pair(name)
    tree.write("nv_spare", tree.function("nv_idle"))
    tree.write("gone_extra", tree.caller("gone_extra_caller", "gone", "gone_def"))
    commit_all(tree.root, "base")
    git(tree.root, "checkout", "-q", "-b", "feature")
    insert_lines_at_top(tree.root, tree.path("gc_use"), 3, tree.lang.comment)
    tree.write("gc_new", tree.caller("gc_new_caller", "gc", "gc_def"))
    git(tree.root, "add", "-A")
    git(tree.root, "commit", "-q", "-m", "feature")
    git(tree.root, "checkout", "-q", "main")
    # As in a real checkout, the files are older than any clock tick or racy
    # window: a server that trusts a file's mtime (ty, gopls) trusts these.
    an_hour_ago = time.time_ns() - 3600 * 10**9
    for path in tree.root.rglob(f"*{tree.lang.suffix}"):
        os.utime(path, ns=(an_hour_ago, an_hour_ago))


@pytest.fixture(scope="module", params=LANGS, ids=lambda lang: lang.server)
def tree(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Tree]:
    lang: Lang = request.param
    dest = tmp_path_factory.mktemp(f"stale_{lang.server}")
    with open_live(
        lang.fixture, dest, language=lang.language, server=lang.server, settings=PATIENT
    ) as live:
        tree = Tree(lang, live)
        _before_start(tree)
        yield tree


def test_lines_inserted_above(tree: Tree) -> None:
    tree.assert_fresh("ins")
    for stem in ("ins_def", "ins_use", "ins_far"):
        insert_lines_at_top(tree.root, tree.path(stem), 4, tree.lang.comment)
    tree.assert_fresh("ins")


def test_a_function_renamed_with_sed(tree: Tree) -> None:
    tree.assert_fresh("ren_old")
    stems = ("ren_old_def", "ren_old_use", "ren_old_far")
    files = [str(tree.root / tree.path(stem)) for stem in stems]
    subprocess.run(["sed", "-i", r"s/\bren_old\b/ren_new/g", *files], check=True)
    assert tree.occurrences("ren_old") == set()
    tree.assert_fresh("ren_new", "ren_old")


def test_a_new_caller_in_a_file_never_opened(tree: Tree) -> None:
    tree.assert_fresh("nv")
    with (tree.root / tree.path("nv_spare")).open("a", encoding="utf-8") as spare:
        spare.write("\n" + tree.caller("nv_spare_caller", "nv", "nv_def"))
    tree.assert_fresh("nv")


def test_a_new_file(tree: Tree) -> None:
    tree.assert_fresh("nf")
    tree.write("nf_new", tree.caller("nf_new_caller", "nf", "nf_def"))
    tree.assert_fresh("nf")
    if not tree.lang.callers:
        return
    callers = tree.live.run(tree.live.pool.incoming_calls(*tree.spot("nf_def", "nf")))
    assert {(s.name, s.location.path) for s in callers} == {
        ("nf_caller", tree.path("nf_use")),
        ("nf_far_caller", tree.path("nf_far")),
        ("nf_new_caller", tree.path("nf_new")),
    }


def test_a_deleted_file(tree: Tree) -> None:
    tree.assert_fresh("gone")
    (tree.root / tree.path("gone_extra")).unlink()
    tree.assert_fresh("gone")


def test_lines_inserted_keeping_the_mtime(tree: Tree) -> None:
    tree.assert_fresh("mk")
    for stem in ("mk_def", "mk_use", "mk_far"):  # the last one never opened
        target = tree.root / tree.path(stem)
        before = target.stat()
        insert_lines_at_top(tree.root, tree.path(stem), 2, tree.lang.comment)
        os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))
    tree.assert_fresh("mk")


def test_an_edit_that_keeps_the_mtime_and_the_size(tree: Tree) -> None:
    tree.assert_fresh("ms")
    for stem, (first, second) in (("ms_def", tree.defining("ms")), ("ms_far", tree.far("ms"))):
        rewrite_keeping_mtime(tree.root, tree.path(stem), tree.text(second, first))
    tree.assert_fresh("ms")


def test_two_quick_writes(tree: Tree) -> None:
    tree.assert_fresh("qw")
    files = {"qw_def": tree.defining("qw"), "qw_far": tree.far("qw")}
    for stem, (first, second) in files.items():
        tree.write(stem, second, first)
    tree.assert_fresh("qw")
    for stem, (first, second) in files.items():
        tree.write(stem, first, second)  # the same size, at once after a query
    tree.assert_fresh("qw")
    for stem, (first, second) in files.items():
        tree.write(stem, second, first)
        tree.write(stem, first, second)  # and twice in a row
    tree.assert_fresh("qw")


def test_git_checkout_of_another_branch(tree: Tree) -> None:
    tree.assert_fresh("gc")
    git(tree.root, "checkout", "-q", "feature")
    assert tree.path("gc_new") in {path for path, _ in tree.occurrences("gc")}
    tree.assert_fresh("gc")
    git(tree.root, "checkout", "-q", "main")
    tree.assert_fresh("gc")
