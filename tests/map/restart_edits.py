"""A generated repository and random edits of it, made while no process runs.

The repository: a Python package whose `__init__` re-exports its modules'
functions, modules importing each other (by name, through the package, and as
modules), classes inheriting across files; TypeScript modules importing each
other's functions and classes. An edit changes a body, renames a definition,
adds, removes or renames a file, moves a definition to another file (its
importers rewritten or not), changes a re-export, or drops an import.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

DEFINITION = re.compile(r"(?:export )?(def|class|function) (\w+)")
PACKAGE = "lib"
WEB = "web"
INIT = f"{PACKAGE}/__init__.py"


def write_repo(root: Path, modules: int, padding: int = 0) -> None:
    """Write the generated repository under `root`: `modules` Python and as many
    TypeScript modules, each with `padding` more functions in a chain."""
    (root / PACKAGE).mkdir(parents=True)
    (root / WEB).mkdir()
    exports = "".join(f"from .m{i} import f{i}\n" for i in range(modules))
    (root / INIT).write_text(f"from .m0 import C0\n{exports}")
    for i in range(modules):
        (root / PACKAGE / f"m{i}.py").write_text(_python_module(i, modules, padding))
        (root / WEB / f"t{i}.ts").write_text(_typescript_module(i, modules, padding))
    (root / "app.py").write_text(
        f"import {PACKAGE}\nfrom {PACKAGE} import f0, f1\n\n\n"
        f"def main():\n    return f0(1) + f1(2) + {PACKAGE}.f{modules - 1}(3)\n"
    )


def _python_module(i: int, modules: int, padding: int) -> str:
    j, k, r = (3 * i + 1) % modules, (i + 2) % modules, (i + 5) % modules
    base = "" if i == 0 else "(C0)"
    head = "" if i == 0 else f"from {PACKAGE} import C0\n"
    pads = _chain("\n\ndef {name}(x):\n    return {callee}(x)\n", f"p{i}_", f"f{i}", padding)
    return (
        f"from {PACKAGE}.m{j} import f{j}\n{head}from {PACKAGE} import f{r}\n"
        f"import {PACKAGE}.m{k}\n\n\n"
        f"class C{i}{base}:\n    def step(self):\n        return f{j}(1)\n\n\n"
        f"def f{i}(x):\n    return {PACKAGE}.m{k}.g{k}(x) + f{j}(x)\n\n\n"
        f"def g{i}(x):\n    return C{i}().step() + f{r}(x)\n{pads}"
    )


def _typescript_module(i: int, modules: int, padding: int) -> str:
    j = (3 * i + 1) % modules
    base = "" if i == 0 else f" extends K{i - 1}"
    head = "" if i == 0 else f"import {{ K{i - 1} }} from './t{i - 1}';\n"
    pad = "\nexport function {name}(): number {{\n  return {callee}();\n}}\n"
    pads = _chain(pad, f"q{i}_", f"h{i}", padding)
    return (
        f"import {{ h{j} }} from './t{j}';\n{head}\n"
        f"export function h{i}(): number {{\n  return h{j}() + 1;\n}}\n\n"
        f"export class K{i}{base} {{\n  run(): number {{\n    return h{i}();\n  }}\n}}\n{pads}"
    )


def _chain(template: str, prefix: str, first: str, length: int) -> str:
    """`length` functions as `template` (a str.format of `name` and `callee`) writes
    them, each calling the one before (the first calls `first`)."""
    names = [f"{prefix}{n}" for n in range(length)]
    callees = [first, *names]
    return "".join(template.format(name=name, callee=callees[n]) for n, name in enumerate(names))


Edit = Callable[[random.Random, Path, int], str]
"""Change the tree under the root (`step` numbers new names); say what was done."""


def random_edit(rnd: random.Random, root: Path, step: int) -> str:
    """One random edit of the tree under `root`; what it did."""
    return rnd.choice(EDITS)(rnd, root, step)


def _sources(root: Path, suffix: str = "") -> list[str]:
    found = (*(root / PACKAGE).glob("*.py"), *(root / WEB).glob("*.ts"), root / "app.py")
    paths = (p.relative_to(root).as_posix() for p in found if p.is_file())
    return sorted(p for p in paths if p.endswith(suffix))


def _chunks(text: str) -> list[str]:
    """The top-level pieces of a source: each starts at a line that starts at column 0
    (other than a closing brace) and holds the lines below it."""
    chunks: list[str] = []
    for line in text.splitlines(keepends=True):
        if chunks and line[:1] in (" ", "\n", "}"):
            chunks[-1] += line
        else:
            chunks.append(line)
    return chunks


def _defined(root: Path, path: str) -> list[tuple[str, str]]:
    """(kind, name) of each definition at the top of `path`."""
    chunks = _chunks((root / path).read_text())
    return [(m[1], m[2]) for chunk in chunks if (m := DEFINITION.match(chunk))]


def _stem(path: str) -> str:
    return path.rsplit("/", 1)[-1].rsplit(".", 1)[0]


def _module(path: str) -> str:
    """How an importer names `path`: `lib.m3`, `./t3`."""
    return f"{PACKAGE}.{_stem(path)}" if path.endswith(".py") else f"./{_stem(path)}"


def _import_line(path: str, name: str) -> str:
    """The line that imports `name` from `path`, as the generated files write it."""
    if path.endswith(".py"):
        return f"from {_module(path)} import {name}\n"
    return f"import {{ {name} }} from '{_module(path)}';\n"


def _call(path: str, name: str) -> str:
    """A statement calling `name` in a function body of `path`'s language."""
    return f"    {name}(0)\n" if path.endswith(".py") else f"  {name}();\n"


def _body(rnd: random.Random, root: Path, step: int) -> str:
    path = rnd.choice(_sources(root))
    chunks = _chunks((root / path).read_text())
    functions = [
        i for i, chunk in enumerate(chunks) if re.match(r"(export )?(def|function) ", chunk)
    ]
    if not functions:
        return f"body: {path} has no function"
    at = rnd.choice(functions)
    others = [
        n for p in _sources(root, path[-3:]) for kind, n in _defined(root, p) if kind != "class"
    ]
    if not others:
        return f"body: no function to call from {path}"
    callee = rnd.choice(others)
    head, _, rest = chunks[at].partition("\n")
    chunks[at] = f"{head}\n{_call(path, callee)}{rest}"
    (root / path).write_text("".join(chunks))
    return f"body: {path} chunk {at} calls {callee}"


def _rename_definition(rnd: random.Random, root: Path, step: int) -> str:
    path = rnd.choice(_sources(root))
    names = [name for _, name in _defined(root, path)]
    if not names:
        return f"rename: {path} defines nothing"
    name = rnd.choice(names)
    text = (root / path).read_text()
    (root / path).write_text(DEFINITION.sub(_renamed(name, f"{name}_r{step}"), text))
    return f"rename: {name} in {path} -> {name}_r{step}"


def _renamed(name: str, new: str) -> Callable[[re.Match[str]], str]:
    def rename(match: re.Match[str]) -> str:
        return match[0].replace(name, new) if match[2] == name else match[0]

    return rename


def _add_file(rnd: random.Random, root: Path, step: int) -> str:
    suffix = rnd.choice([".py", ".ts"])
    folder = PACKAGE if suffix == ".py" else WEB
    path = f"{folder}/n{step}{suffix}"
    picks = [
        (p, n) for p in _sources(root, suffix) for kind, n in _defined(root, p) if kind != "class"
    ]
    chosen = rnd.sample(picks, min(2, len(picks)))
    imports = "".join(_import_line(p, n) for p, n in chosen)
    calls = "".join(_call(path, n) for _, n in chosen)
    if suffix == ".py":
        body = f"{imports}\n\ndef new{step}():\n{calls}    return 0\n"
    else:
        body = f"{imports}\nexport function new{step}(): number {{\n{calls}  return 0;\n}}\n"
    (root / path).write_text(body)
    return f"add: {path} using {chosen}"


def _remove_file(rnd: random.Random, root: Path, step: int) -> str:
    path = rnd.choice([p for p in _sources(root) if p != INIT])
    (root / path).unlink()
    return f"remove: {path}"


def _rename_file(rnd: random.Random, root: Path, step: int) -> str:
    path = rnd.choice([p for p in _sources(root) if p != INIT])
    new = re.sub(r"(\.\w+)$", rf"_r{step}\1", path)
    (root / path).rename(root / new)
    return f"rename file: {path} -> {new}"


def _move_definition(rnd: random.Random, root: Path, step: int) -> str:
    source = rnd.choice([p for p in _sources(root) if _defined(root, p)])
    target = rnd.choice([p for p in _sources(root, source[-3:]) if p not in (source, INIT)])
    chunks = _chunks((root / source).read_text())
    at = rnd.choice([i for i, chunk in enumerate(chunks) if DEFINITION.match(chunk)])
    moved = chunks.pop(at)
    (root / source).write_text("".join(chunks))
    with (root / target).open("a") as out:
        out.write(f"\n\n{moved}")
    match = DEFINITION.match(moved)
    assert match is not None
    fixed = rnd.random() < 0.5
    if fixed:
        _importers_follow(root, source, target, match[2])
    return f"move: {match[2]} {source} -> {target}" + (" (importers follow)" if fixed else "")


def _importers_follow(root: Path, source: str, target: str, name: str) -> None:
    """Rewrite the imports of `name` from `source` (the package's re-exports too) to
    import it from `target`."""
    old, new = _import_line(source, name), _import_line(target, name)
    relative_old, relative_new = (f"from .{_stem(p)} import {name}\n" for p in (source, target))
    for path in _sources(root, source[-3:]):
        text = (root / path).read_text()
        (root / path).write_text(text.replace(old, new).replace(relative_old, relative_new))


def _re_export(rnd: random.Random, root: Path, step: int) -> str:
    lines = (root / INIT).read_text().splitlines(keepends=True)
    modules = [p for p in _sources(root, ".py") if p.startswith(f"{PACKAGE}/") and p != INIT]
    module = rnd.choice(modules)
    names = [n for _, n in _defined(root, module)] or ["missing"]
    line = f"from .{_stem(module)} import {rnd.choice(names)}\n"
    if lines and rnd.random() < 0.5:
        at = rnd.randrange(len(lines))
        lines[at] = line
    else:
        lines.append(line)
    (root / INIT).write_text("".join(lines))
    return f"re-export: {line.strip()}"


def _drop_import(rnd: random.Random, root: Path, step: int) -> str:
    path = rnd.choice(_sources(root))
    lines = (root / path).read_text().splitlines(keepends=True)
    imports = [i for i, line in enumerate(lines) if line.startswith(("from ", "import "))]
    if not imports:
        return f"drop import: {path} imports nothing"
    dropped = lines.pop(rnd.choice(imports))
    (root / path).write_text("".join(lines))
    return f"drop import: {dropped.strip()} in {path}"


EDITS: tuple[Edit, ...] = (
    _body,
    _rename_definition,
    _add_file,
    _remove_file,
    _rename_file,
    _move_definition,
    _re_export,
    _drop_import,
)
