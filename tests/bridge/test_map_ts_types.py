"""TypeScript receivers typed as the compiler types them, and methods counted with the
ones they override, as the TypeScript server's call hierarchy counts them: real maps
of a small repository asked through the real tools on a real AppContext.

A parameter, a variable (`let root: Root`, given later), a class field and a
constructor's parameter property annotated with a type hold an instance of it, as
does a local given `new T()` or the result of a function annotated to return one
(`this.tree = new Tree()` gives the attribute one), and a helper declared in a test's
callback sees the callback's `let root: Root`; a receiver of a library's type
(`client: Client` from a package) is outside, never a guess. A call of a method
counts for every method of its name up its class's bases and down from them
(`a.disconnect()` on the interface, `d.disconnect()` on a sibling class), not for
an unrelated class's method of that name. An object literal a function annotated to
return a type returns, or a name annotated with a type is given, is one of it:
`mount(...).unmount()` calls the literal's `unmount`, a property of the type holding
a function, and so does `(e as Mounted).unmount()` (an arrow function inside one
annotated to return a type returns its own, not the function's); a literal given `as
Store` is one too, and a type alias (`type Store = Inner`) has the members of the
type it names, its object type's members its own (`type Inner = {get: ...}`: Inner.get).
"""

from __future__ import annotations

from pathlib import Path

from map import CodeMap, MapSettings
from tests.bridge.test_map_completeness import _ask, _callers, _listed, _repo, _sites

SOURCES = {
    "package.json": '{"name": "demo", "type": "module"}\n',
    "tsconfig.json": '{"compilerOptions": {"strict": true}}\n',
    "src/root.ts": (
        "export interface Root {\n"  # 1
        "  render(element: string): void\n"  # 2
        "}\n"  # 3
        "export class Tree {\n"  # 4
        "  render(element: string): void {}\n"  # 5
        "}\n"  # 6
        "export function createRoot(): Root {\n"  # 7
        "  return new Tree()\n"  # 8
        "}\n"  # 9
    ),
    "src/use.ts": (
        "import {Root, Tree, createRoot} from './root'\n"  # 1
        "import {Client} from 'lib'\n"  # 2
        "export class App {\n"  # 3
        "  private other: Tree\n"  # 4
        "  constructor(private readonly root: Root, private client: Client) {\n"  # 5
        "    this.tree = new Tree()\n"  # 6
        "    this.other = this.tree\n"  # 7
        "  }\n"  # 8
        "  show(r: Root): void {\n"  # 9
        "    r.render('a')\n"  # 10
        "    this.root.render('b')\n"  # 11
        "    this.tree.render('c')\n"  # 12
        "    this.other.render('d')\n"  # 13
        "    this.client.render('e')\n"  # 14
        "  }\n"  # 15
        "}\n"  # 16
        "export function main(): void {\n"  # 17
        "  let root: Root\n"  # 18
        "  root = createRoot()\n"  # 19
        "  root.render('f')\n"  # 20
        "  const made = createRoot()\n"  # 21
        "  made.render('g')\n"  # 22
        "}\n"  # 23
    ),
    "test/root.test.ts": (
        "import {Root, createRoot} from '../src/root'\n"  # 1
        "describe('root', () => {\n"  # 2
        "  let root: Root\n"  # 3
        "  function show(x: string): void {\n"  # 4
        "    root.render(x)\n"  # 5
        "  }\n"  # 6
        "  beforeEach(() => {\n"  # 7
        "    root = createRoot()\n"  # 8
        "  })\n"  # 9
        "  it('shows', () => show('h'))\n"  # 10
        "})\n"  # 11
    ),
    "test/helpers.ts": (
        "interface Mounted {\n"  # 1
        "  unmount: () => void\n"  # 2
        "  size: number\n"  # 3
        "}\n"  # 4
        "export function mount(tag: string): Mounted {\n"  # 5
        "  return {\n"  # 6
        "    unmount() {},\n"  # 7
        "    size: tag.length,\n"  # 8
        "  }\n"  # 9
        "}\n"  # 10
        "export function other(): void {\n"  # 11
        "  const left = {unmount() {}}\n"  # 12
        "  left.unmount()\n"  # 13
        "}\n"  # 14
    ),
    "test/mount.test.ts": (
        "import {mount} from './helpers'\n"  # 1
        "it('mounts', () => {\n"  # 2
        "  const result = mount('div')\n"  # 3
        "  result.unmount()\n"  # 4
        "})\n"  # 5
    ),
    "src/effect.ts": (
        "interface Effect {\n"  # 1
        "  stop: () => void\n"  # 2
        "}\n"  # 3
        "export function effect(): Effect {\n"  # 4
        "  const count = (): Date => new Date()\n"  # 5
        "  const made: Effect = {\n"  # 6
        "    stop(): void {},\n"  # 7
        "  }\n"  # 8
        "  return count() ? made : made\n"  # 9
        "}\n"  # 10
        "export function halt(e: unknown): void {\n"  # 11
        "  effect().stop()\n"  # 12
        "  ;(e as Effect).stop()\n"  # 13
        "}\n"  # 14
    ),
    "src/store.ts": (
        "type Inner = {\n"  # 1
        "  get: (key: string) => number\n"  # 2
        "}\n"  # 3
        "export type Store = Inner\n"  # 4
        "export function createStore(): Store {\n"  # 5
        "  const store = {\n"  # 6
        "    get(key: string) {\n"  # 7
        "      return key.length\n"  # 8
        "    },\n"  # 9
        "  } as Store\n"  # 10
        "  return store\n"  # 11
        "}\n"  # 12
    ),
    "test/store.test.ts": (
        "import {createStore} from '../src/store'\n"  # 1
        "it('reads', () => {\n"  # 2
        "  const store = createStore()\n"  # 3
        "  store.get('a')\n"  # 4
        "})\n"  # 5
    ),
    "src/adapters.ts": (
        "export interface Adapter {\n"  # 1
        "  disconnect(): void\n"  # 2
        "}\n"  # 3
        "export abstract class BaseAdapter implements Adapter {\n"  # 4
        "  abstract disconnect(): void\n"  # 5
        "}\n"  # 6
        "export class BrowserAdapter extends BaseAdapter {\n"  # 7
        "  disconnect(): void {}\n"  # 8
        "}\n"  # 9
        "export class DirectAdapter extends BaseAdapter {\n"  # 10
        "  disconnect(): void {}\n"  # 11
        "}\n"  # 12
        "export class Other {\n"  # 13
        "  disconnect(): void {}\n"  # 14
        "}\n"  # 15
        "export function createDirect(): DirectAdapter {\n"  # 16
        "  return new DirectAdapter()\n"  # 17
        "}\n"  # 18
    ),
    "src/run.ts": (
        "import {Adapter, BrowserAdapter, createDirect, Other} from './adapters'\n"  # 1
        "export function viaBase(a: Adapter): void {\n"  # 2
        "  a.disconnect()\n"  # 3
        "}\n"  # 4
        "export function direct(b: BrowserAdapter, o: Other): void {\n"  # 5
        "  b.disconnect()\n"  # 6
        "  o.disconnect()\n"  # 7
        "}\n"  # 8
        "export function sibling(): void {\n"  # 9
        "  const d = createDirect()\n"  # 10
        "  d.disconnect()\n"  # 11
        "}\n"  # 12
    ),
}
FAMILY = [("src/run.ts#direct", [6]), ("src/run.ts#sibling", [11]), ("src/run.ts#viaBase", [3])]


def _complete(data: dict[str, object]) -> bool:
    return (data["completeness"], data["unresolvedCount"]) == ("complete", 0)


def test_annotated_and_constructed_receivers_type_their_calls(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", SOURCES)
    interface, tree = _ask(
        root, _callers("src/root.ts#Root.render"), _callers("src/root.ts#Tree.render")
    )
    data = interface["data"]
    assert _listed(data) == [
        ("src/use.ts#App.show", [10, 11]),
        ("src/use.ts#main", [20, 22]),
        ("test/root.test.ts#show", [5]),
    ]
    assert _complete(data)
    data = tree["data"]
    assert _listed(data) == [("src/use.ts#App.show", [12, 13])]
    assert _complete(data)


def test_a_method_s_callers_take_in_what_it_overrides_and_its_siblings(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", SOURCES)
    browser, interface, direct, other = _ask(
        root,
        _callers("src/adapters.ts#BrowserAdapter.disconnect"),
        _callers("src/adapters.ts#Adapter.disconnect"),
        _callers("src/adapters.ts#DirectAdapter.disconnect"),
        _callers("src/adapters.ts#Other.disconnect"),
    )
    for answer in (browser, interface, direct):
        assert sorted(_listed(answer["data"])) == FAMILY
        assert _complete(answer["data"])
    assert _listed(other["data"]) == [("src/run.ts#direct", [7])]
    assert _complete(other["data"])


def test_a_literal_returned_as_a_declared_type_is_called_through_it(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", SOURCES)
    literal, declared, given = _ask(
        root,
        _callers("test/helpers.ts#mount.unmount"),
        _callers("test/helpers.ts#Mounted.unmount"),
        _callers("src/effect.ts#effect.stop"),
    )
    for answer in (literal, declared):
        assert _listed(answer["data"]) == [("test/mount.test.ts", [4])]
        assert answer["data"]["completeness"] == "partial"  # a literal typed by nothing
        assert _sites(answer["data"]) == [("test/helpers.ts", 13, "unmount", "left", "guess")]
    assert _listed(given["data"]) == [("src/effect.ts#halt", [12, 13])]
    assert _complete(given["data"])


def test_a_type_alias_has_the_members_of_the_type_it_names(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", SOURCES)
    literal, declared = _ask(
        root, _callers("src/store.ts#createStore.get"), _callers("src/store.ts#Inner.get")
    )
    for answer in (literal, declared):
        assert _listed(answer["data"]) == [("test/store.test.ts", [4])]
        assert _complete(answer["data"])


def test_a_restarted_map_answers_the_overrides_from_its_store_alike(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", SOURCES)
    (built,) = _ask(root, _callers("src/adapters.ts#BrowserAdapter.disconnect"))
    (stored,) = _ask(root, _callers("src/adapters.ts#BrowserAdapter.disconnect"))
    for answer in (built, stored):
        assert sorted(_listed(answer["data"])) == FAMILY
        assert _complete(answer["data"])


def test_an_annotation_edited_relinks_as_a_fresh_build_does(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", SOURCES)
    code_map = CodeMap.open(root, MapSettings(snapshot_dir=str(tmp_path / "store")))
    before = code_map.ties("src/run.ts", "disconnect")
    assert [(t.line, t.targets) for t in before if t.line == 6] == [
        (6, ("src/adapters.ts#BrowserAdapter.disconnect",))
    ]
    run = root / "src" / "run.ts"
    run.write_text(run.read_text().replace("(b: BrowserAdapter,", "(b: Other,"))
    code_map.rebuild()
    edited = code_map.ties("src/run.ts", "disconnect")
    assert [(t.line, t.targets) for t in edited if t.line == 6] == [
        (6, ("src/adapters.ts#Other.disconnect",))
    ]
    fresh = CodeMap.open(root, MapSettings(snapshot_dir=str(tmp_path / "fresh")))
    assert fresh.ties("src/run.ts", "disconnect") == edited
    assert [t.why for t in fresh.ties("src/use.ts", "render") if t.line == 14] == ["outside"]
