"""TypeScript calls the map used to miss or invent: real maps of a small TypeScript
repository asked through the real tools on a real AppContext.

A component rendered as a JSX element is called there (the TypeScript server counts
`<Counter />` in its call hierarchy); `await mount<T>(tag)` calls `mount` (the grammar
reads it as a call of `await mount`); an object literal's method binds no name, so a
bare `test(...)` in its file is the imported library's `test`, not that method. What a
test's callback declares is its own: a `const createStore` there hides the imported one
in that callback only, and each callback's `function Counter` is the one its
`<Counter />` renders; a local a `require` declares is the import's (a library's).
A class's members are not in scope inside it: a bare `getName(x)` in a method
`getName` calls the imported function, not the method.
"""

from __future__ import annotations

from pathlib import Path

from map import CodeMap, MapSettings
from tests.bridge.test_map_completeness import _ask, _callers, _listed, _repo

SOURCES = {
    "package.json": '{"name": "demo", "type": "module"}\n',
    "tsconfig.json": '{"compilerOptions": {"jsx": "react-jsx", "strict": true}}\n',
    "src/counter.tsx": "export function Counter() {\n  return <div />\n}\n",
    "src/app.tsx": (
        "import {Counter} from './counter'\n"  # 1
        "export function App() {\n"  # 2
        "  return <section><Counter /></section>\n"  # 3
        "}\n"
    ),
    "src/mount.ts": (
        "export async function mount<T>(tag: string): Promise<T> {\n  return tag as T\n}\n"
    ),
    "test/run.ts": (
        "import test from 'ava'\n"  # 1
        "import {mount} from '../src/mount'\n"  # 2
        "\n"  # 3
        "test('mounts', async () => {\n"  # 4
        "  const element = await mount<string>('x')\n"  # 5
        "  const options = {\n"  # 6
        "    async test() {\n"  # 7
        "      return element\n"  # 8
        "    },\n"  # 9
        "  }\n"  # 10
        "  return options\n"  # 11
        "})\n"  # 12
        "test('again', async () => {})\n"  # 13
    ),
    "src/store.ts": (
        "export function createStore() {\n  return 1\n}\nexport class Disk {\n  readFile() {}\n}\n"
    ),
    "src/names.ts": "export function getName(x: string): string {\n  return x\n}\n",
    "src/tool.ts": (
        "import {getName} from './names'\n"  # 1
        "export class Tool {\n"  # 2
        "  getName(x: string): string {\n"  # 3
        "    return getName(x)\n"  # 4
        "  }\n"  # 5
        "  run(): string {\n"  # 6
        "    return this.getName('a')\n"  # 7
        "  }\n"  # 8
        "}\n"
    ),
    "src/files.js": "const fs = require('fs')\nfs.readFile('x')\n",
    "test/store.test.tsx": (
        "import {createStore} from '../src/store'\n"  # 1
        "\n"  # 2
        "it('uses the real one', () => {\n"  # 3
        "  createStore()\n"  # 4
        "})\n"  # 5
        "it('has its own', () => {\n"  # 6
        "  const createStore = () => 1\n"  # 7
        "  createStore()\n"  # 8
        "  function Counter() {\n"  # 9
        "    return <div />\n"  # 10
        "  }\n"  # 11
        "  return <Counter />\n"  # 12
        "})\n"  # 13
        "it('has another', () => {\n"  # 14
        "  function Counter() {\n"  # 15
        "    return <span />\n"  # 16
        "  }\n"  # 17
        "  return <Counter />\n"  # 18
        "})\n"  # 19
    ),
}


def test_script_jsx_elements_generic_awaits_and_literal_methods(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", SOURCES)
    counter, mount, method = _ask(
        root,
        _callers("src/counter.tsx#Counter"),
        _callers("src/mount.ts#mount"),
        _callers("test/run.ts#test"),
    )
    data = counter["data"]
    assert _listed(data) == [("src/app.tsx#App", [3])]
    assert (data["completeness"], data["unresolvedCount"]) == ("complete", 0)
    data = mount["data"]
    assert _listed(data) == [("test/run.ts", [5])]
    assert (data["completeness"], data["unresolvedCount"]) == ("complete", 0)
    data = method["data"]
    assert _listed(data) == []
    assert (data["completeness"], data["unresolvedCount"]) == ("complete", 0)


def test_script_a_class_s_members_are_reached_through_this_only(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", SOURCES)
    method, function = _ask(
        root, _callers("src/tool.ts#Tool.getName"), _callers("src/names.ts#getName")
    )
    data = method["data"]
    assert _listed(data) == [("src/tool.ts#Tool.run", [7])]
    assert (data["completeness"], data["unresolvedCount"]) == ("complete", 0)
    data = function["data"]
    assert _listed(data) == [("src/tool.ts#Tool.getName", [4])]
    assert (data["completeness"], data["unresolvedCount"]) == ("complete", 0)


def test_script_a_callback_s_own_declarations_are_seen_in_it_alone(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", SOURCES)
    store, first, second = _ask(
        root,
        _callers("src/store.ts#createStore"),
        _callers("test/store.test.tsx#Counter"),
        _callers("test/store.test.tsx#Counter~2"),
    )
    data = store["data"]
    assert _listed(data) == [("test/store.test.tsx", [4])]
    assert (data["completeness"], data["unresolvedCount"]) == ("complete", 0)
    data = first["data"]
    assert _listed(data) == [("test/store.test.tsx", [12])]
    assert (data["completeness"], data["unresolvedCount"]) == ("complete", 0)
    data = second["data"]
    assert _listed(data) == [("test/store.test.tsx", [18])]
    assert (data["completeness"], data["unresolvedCount"]) == ("complete", 0)


def test_script_a_callback_s_declaration_edited_relinks_as_a_fresh_build_does(
    tmp_path: Path,
) -> None:
    root = _repo(tmp_path / "repo", SOURCES)
    code_map = CodeMap.open(root, MapSettings(snapshot_dir=str(tmp_path / "store")))
    before = code_map.ties("test/store.test.tsx", "createStore")
    assert [(t.line, t.targets, t.why) for t in before if t.line == 8] == [(8, (), "local")]
    test = root / "test" / "store.test.tsx"
    test.write_text(test.read_text().replace("  const createStore = () => 1\n", ""))
    code_map.rebuild()
    edited = code_map.ties("test/store.test.tsx", "createStore")
    assert [(t.line, t.targets) for t in edited] == [
        (4, ("src/store.ts#createStore",)),
        (7, ("src/store.ts#createStore",)),
    ]
    fresh = CodeMap.open(root, MapSettings(snapshot_dir=str(tmp_path / "fresh")))
    assert fresh.ties("test/store.test.tsx", "createStore") == edited
    assert [t.why for t in fresh.ties("src/files.js", "readFile")] == ["outside"]
