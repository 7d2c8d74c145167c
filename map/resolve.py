"""Resolve one reference to the symbols it names, through the import structure.

Lookups go: the enclosing scopes of the file, then what its imports bind
(following re-exports and star imports), then what it sees unqualified (Go
package siblings, C/C++ includes). A qualifier is followed segment by
segment (`self`/`this`, modules, classes and their bases). When none of
that answers, a name may still be guessed by name (map.resolution).

Every name looked up in another file or in the global name index is added
to `consulted`: the linker re-resolves a reference only when a changed
file defines (or defined) one of the names it consulted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from map.assigned import Givens
from map.extract_matches import CALLED
from map.lookup import (
    SELF_WORDS,
    SUPER_WORDS,
    AnswerKey,
    Exports,
    Lookup,
    RefKey,
    Trace,
    answer_key,
    defined,
    recording,
    replay,
    see,
    segments,
    shadowed_names,
    trace,
)
from map.model import RETURNS, Assignment, Range, Reference
from map.resolution import (
    BUILTIN_MEMBERS,
    BY_NAME_LANGUAGES,
    CONFIDENCE_INHERITED,
    LEXICAL_CONSTANT_LANGUAGES,
    NameIndex,
    Resolution,
    file_of,
)
from map.resolution import exact as _exact
from map.scopes import Binding, FileScope, ModuleBinding, NameBinding

MAX_HOPS = 6
CONSTRUCTOR_NAMES = {"python": "__init__"}
"""The method a call of a class runs, per language (an edge goes to it too)."""


@dataclass(frozen=True, slots=True)
class _Module:
    files: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Class:
    node_id: str
    bases_only: bool = False


_Target = _Module | _Class | None


_NOWHERE = Range(0, 0, 0, 0)
Answer = tuple[Resolution | None, frozenset[str]]
"""What a reference names (None: none of ours), and the names its lookup consulted."""


class Resolver:
    """Answers name lookups against every file's scope and the global name index."""

    def __init__(
        self, scopes: Mapping[str, FileScope], defs_by_name: Mapping[str, set[str]]
    ) -> None:
        self._scopes = scopes
        self._defs = defs_by_name
        self._exports = Exports(scopes)
        self._names = NameIndex(scopes, defs_by_name)
        self._members: dict[tuple[str, bool, str, int], tuple[Resolution | None, Trace]] = {}
        self._file = ""
        self._shadowed: frozenset[str] = frozenset()
        """The names `_file` defines or assigns below module level (see `answer_key`)."""
        self._in_file: dict[AnswerKey, Answer] = {}
        """The answers for the references of `_file` (a file uses one name many times),
        by `answer_key` and by the reference's own `RefKey`."""

    def forget(self) -> None:
        """Drop the lookups remembered so far; call whenever scopes or definitions change."""
        self._exports.forget()
        self._names.forget()
        self._members.clear()
        self._in_file.clear()

    def answer(self, path: str, ref: RefKey) -> Answer:
        """What the reference `ref` in file `path` names (None: none of ours), and the
        names its lookup consulted in other files.

        Answers are remembered until `forget`: for the file asked about last, by
        what a reference's answer depends on (`answer_key`), and members of classes
        for every file."""
        if path != self._file:
            self._file = path
            self._shadowed = shadowed_names(self._scopes[path])
            self._in_file.clear()
        known = self._in_file.get(ref)
        if known is None:
            key = answer_key(self._scopes[path], ref, self._shadowed)
            known = self._in_file.get(key)
            if known is None:
                names: set[str] = set()
                scope, name, qualifier, kind = ref
                value = Reference(name, kind, _NOWHERE, scope, qualifier)
                known = (self._resolve_new(path, value, names), frozenset(names))
                self._in_file[key] = known
            self._in_file[ref] = known
        return known

    def _resolve_new(self, path: str, ref: Reference, consulted: set[str]) -> Resolution | None:
        ctx = Lookup(path, consulted)
        scope = self._scopes[path]
        found = self._resolve(ctx, scope, ref, 0)
        if found is None or ref.kind != "calls" or scope.language not in CONSTRUCTOR_NAMES:
            return found
        target = self._class_of(found.targets)
        if not isinstance(target, _Class):
            return found
        constructor = self._member(ctx, target, CONSTRUCTOR_NAMES[scope.language], 0)
        if constructor is None:
            return found
        return Resolution(found.targets, found.confidence, constructor.targets)

    def _resolve(
        self, ctx: Lookup, scope: FileScope, ref: Reference, depth: int
    ) -> Resolution | None:
        if ref.qualifier is None:
            return self._unqualified(ctx, scope, ref.scope, ref.name)
        return self._qualified(ctx, scope, ref, depth)

    def _unqualified(
        self, ctx: Lookup, scope: FileScope, scope_id: str, name: str
    ) -> Resolution | None:
        ids = self._local(ctx, scope, scope_id, name)
        where = scope.assigning(scope_id, name) if not ids else None
        if where is not None:  # `f = mod.func; f()` calls mod.func; an instance's call is not ours
            givens = scope.assigned.givens((where, name))
            target = self._assigned(ctx, scope, where, name, givens, 0)
            if isinstance(target, _Class) and not givens[0][1]:
                return _exact((target.node_id,))
            return target if isinstance(target, Resolution) else None
        if not ids:
            see(ctx, scope, name)
            binding = scope.bindings.get(name)
            if binding is not None:
                return _exact(self._bound(ctx, binding, name))
            ids = self._exports.find(ctx, scope.stars, name)
        for visible in scope.visible_files:
            if ids:
                break
            ids = self._visible(ctx, scope, scope_id, self._scopes[visible], name)
        if ids:
            return _exact(ids)
        if scope.language in BY_NAME_LANGUAGES:
            return self._by_name(ctx, scope, name, members=False)
        return None

    def _local(self, ctx: Lookup, scope: FileScope, scope_id: str, name: str) -> tuple[str, ...]:
        """`name` in the scopes enclosing `scope_id`, innermost first."""
        see(ctx, scope, name)
        by_qual = scope.by_qual
        for prefix in scope.lookup_prefixes(scope_id):
            ids = by_qual.get(prefix + name)
            if ids:
                return ids
        return ()

    def _visible(
        self, ctx: Lookup, scope: FileScope, scope_id: str, other: FileScope, name: str
    ) -> tuple[str, ...]:
        """`name` among the top-level names of a file `scope` sees; in Ruby, under the
        modules around the use first (`Cart` in `module Shop` may be Shop::Cart)."""
        if scope.language not in LEXICAL_CONSTANT_LANGUAGES:
            return defined(ctx, other, name, name)
        for prefix in scope.lookup_prefixes(scope_id):
            ids = defined(ctx, other, prefix + name, name)
            if ids:
                return ids
        return ()

    def _bound(self, ctx: Lookup, binding: Binding, name: str) -> tuple[str, ...]:
        if isinstance(binding, NameBinding):
            return self._exports.find(ctx, binding.files, binding.name)
        return self._exports.find(ctx, binding.files, name)

    def _qualified(
        self, ctx: Lookup, scope: FileScope, ref: Reference, depth: int
    ) -> Resolution | None:
        head, *rest = segments(ref.qualifier or "")
        target = self._head(ctx, scope, ref.scope, head, depth)
        for segment in rest:
            target = self._step(ctx, target, segment, depth)
        if isinstance(target, _Module):
            return _exact(self._exports.find(ctx, target.files, ref.name)) if target.files else None
        if isinstance(target, _Class):
            return self._member(ctx, target, ref.name, depth)
        if scope.language == "python" and (ref.kind == "references" or ref.name in BUILTIN_MEMBERS):
            return None  # a use (not a call), or a builtin type's method, on an unknown receiver
        return self._by_name(ctx, scope, ref.name, members=True)

    def _head(self, ctx: Lookup, scope: FileScope, scope_id: str, head: str, depth: int) -> _Target:
        if head in SELF_WORDS or head in SUPER_WORDS:
            owner = scope.enclosing_class(scope_id)
            return _Class(owner, bases_only=head in SUPER_WORDS) if owner is not None else None
        if head.endswith(CALLED):  # `make().run()`: what `make` returns
            return self._result(
                ctx, self._unqualified(ctx, scope, scope_id, head[: -len(CALLED)]), depth
            )
        ids = self._local(ctx, scope, scope_id, head)
        where = scope.assigning(scope_id, head) if not ids else None
        if where is not None:
            givens = scope.assigned.givens((where, head))
            target = self._assigned(ctx, scope, where, head, givens, depth)
            return target if not isinstance(target, Resolution) else self._class_of(target.targets)
        if not ids:
            see(ctx, scope, head)
            binding = scope.bindings.get(head)
            if isinstance(binding, ModuleBinding):
                return _Module(binding.files)
            if binding is not None:
                ids = self._bound(ctx, binding, head)
                if not ids and not binding.files:
                    return _Module(())
                if not ids:  # `from .globals import request`: a module's variable
                    name = binding.name if isinstance(binding, NameBinding) else head
                    return self._module_variable(ctx, binding.files, name, depth)
        return self._class_of(ids)

    def _assigned(
        self, ctx: Lookup, scope: FileScope, where: str, name: str, givens: Givens, depth: int
    ) -> _Target | Resolution:
        """What local `name` stands for, from what scope `where` gives it: its one
        assignment's value (`_follow`). Several differing assignments, or an unknown
        value (a parameter, a loop variable): nothing."""
        if len(givens) != 1 or not givens[0][0]:
            return None
        return self._follow(ctx, scope, Assignment(name, where, *givens[0]), depth)

    def _follow(
        self, ctx: Lookup, scope: FileScope, assignment: Assignment, depth: int
    ) -> _Target | Resolution:
        """What an assignment's value stands for: an alias's target (a module, a class,
        or the symbols of a name), or the instance of the class a call constructs."""
        if not assignment.value or assignment in ctx.following or depth >= MAX_HOPS:
            return None
        qualifier, _, name = assignment.value.rpartition(".")
        ctx.following.add(assignment)
        try:
            if not assignment.called:
                aliased = self._aliased(ctx, scope, assignment, depth)
                if aliased is not None:
                    return aliased
            value = Reference(name, "calls", _NOWHERE, assignment.scope, qualifier or None)
            resolution = self._resolve(ctx, scope, value, depth + 1)
        finally:
            ctx.following.discard(assignment)
        if resolution is None or resolution.confidence < CONFIDENCE_INHERITED:
            return None
        target = self._class_of(resolution.targets)
        if assignment.called:  # an instance of the class, or what the function returns
            return target or self._returns(ctx, resolution.targets, depth)
        return target or resolution

    def _aliased(
        self, ctx: Lookup, scope: FileScope, assignment: Assignment, depth: int
    ) -> _Target | Resolution:
        """What an alias's (dotted) value names as a module, a class, an instance or
        a member (`j = flask.json`, `app = self.app`, `f = self.method`); None leaves
        it to the name lookup (a function)."""
        head, *rest = assignment.value.split(".")
        target = self._head(ctx, scope, assignment.scope, head, depth + 1)
        if not rest:
            return target
        for segment in rest[:-1]:
            target = self._step(ctx, target, segment, depth)
        stepped = self._step(ctx, target, rest[-1], depth)
        if stepped is not None:
            return stepped
        if isinstance(target, _Module):
            return _exact(self._exports.find(ctx, target.files, rest[-1])) if target.files else None
        if isinstance(target, _Class):
            return self._member(ctx, target, rest[-1], depth)
        return None

    def _module_variable(
        self, ctx: Lookup, files: tuple[str, ...], name: str, depth: int
    ) -> _Target:
        """What a module-level variable `name` of the module in `files` holds (`g:
        _AppCtxGlobals = LocalProxy(...)`), following the imports that re-export it."""
        for path in files:
            scope = self._scopes.get(path)
            if scope is None or depth >= MAX_HOPS:
                continue
            see(ctx, scope, name)
            givens = scope.assigned.givens((path, name))
            if givens:
                target = self._assigned(ctx, scope, path, name, givens, depth + 1)
                return None if isinstance(target, Resolution) else target
            binding = scope.bindings.get(name)
            if isinstance(binding, NameBinding) and binding.files:
                return self._module_variable(ctx, binding.files, binding.name, depth + 1)
        return None

    def _step(self, ctx: Lookup, target: _Target, segment: str, depth: int) -> _Target:
        if isinstance(target, _Module) and not target.files:
            return target  # inside a module that is not ours
        if segment.endswith(CALLED):  # `app.test_client().open`: what the call returns
            name = segment[: -len(CALLED)]
            if isinstance(target, _Class):
                return self._result(ctx, self._member(ctx, target, name, depth), depth)
            if isinstance(target, _Module) and target.files:
                return self._result(ctx, _exact(self._exports.find(ctx, target.files, name)), depth)
            return None
        if isinstance(target, _Module):
            if not target.files:
                return target
            ids = self._exports.find(ctx, target.files, segment)
            if ids:
                return self._class_of(ids)
            submodule = self._submodule(ctx, target.files[0], segment)
            return submodule or self._module_variable(ctx, target.files, segment, depth)
        if isinstance(target, _Class):  # a nested class, a property's value, an attribute
            member = self._member(ctx, _Class(target.node_id), segment, depth)
            found = self._result(ctx, member, depth) if member is not None else None
            return found or self._attribute(ctx, target.node_id, segment, depth)
        return None

    def _result(self, ctx: Lookup, called: Resolution | None, depth: int) -> _Target:
        """What calling `called` gives: an instance of the class, or what the function
        (every one of its targets alike) is annotated to return."""
        if called is None or called.confidence < CONFIDENCE_INHERITED:
            return None
        return self._class_of(called.targets) or self._returns(ctx, called.targets, depth)

    def _returns(self, ctx: Lookup, functions: tuple[str, ...], depth: int) -> _Target:
        results: set[_Target] = set()
        for node_id in functions:
            scope = self._scopes[file_of(node_id)]
            see(ctx, scope, scope.symbols[node_id].name)
            givens = scope.assigned.givens((node_id, RETURNS))
            found = self._assigned(ctx, scope, node_id, RETURNS, givens, depth + 1)
            results.add(None if isinstance(found, Resolution) else found)
        return results.pop() if len(results) == 1 else None

    def _attribute(self, ctx: Lookup, class_id: str, name: str, depth: int) -> _Target:
        """What an instance attribute of the class (or of its bases) holds, when all
        the known values given to it agree (`self.app = app` with `app: Flask`)."""
        if depth >= MAX_HOPS:
            return None
        scope = self._scopes[file_of(class_id)]
        see(ctx, scope, name)
        assigned = scope.attribute(class_id, name)
        if assigned:
            targets = {self._follow(ctx, scope, one, depth + 1) for one in assigned}
            found = targets.pop() if len(targets) == 1 else None
            return None if isinstance(found, Resolution) else found
        for base in self._bases(ctx, class_id, depth):
            found = self._attribute(ctx, base, name, depth + 1)
            if found is not None:
                return found
        return None

    def _submodule(self, ctx: Lookup, package_file: str, segment: str) -> _Target:
        ctx.consulted.add(segment)
        directory = package_file.rsplit("/", 1)[0] if "/" in package_file else ""
        prefix = f"{directory}/" if directory else ""
        for candidate in (f"{prefix}{segment}.py", f"{prefix}{segment}/__init__.py"):
            if candidate in self._scopes:
                return _Module((candidate,))
        return None

    def _class_of(self, ids: tuple[str, ...]) -> _Target:
        if len(ids) == 1 and self._scopes[file_of(ids[0])].is_class(ids[0]):
            return _Class(ids[0])
        return None

    def _member(self, ctx: Lookup, owner: _Class, name: str, depth: int) -> Resolution | None:
        """Member `name` of the class (or of its bases), remembered with what it consulted
        (unless an assignment's value is being followed: the answer depends on which)."""
        if ctx.following:
            return self._find_member(ctx, owner, name, depth)
        key = (owner.node_id, owner.bases_only, name, depth)
        known = self._members.get(key)
        if known is None:
            inner = recording()
            found = self._find_member(inner, owner, name, depth)
            known = self._members[key] = (found, trace(inner))
        replay(ctx, known[1])
        return known[0]

    def _find_member(self, ctx: Lookup, owner: _Class, name: str, depth: int) -> Resolution | None:
        if not owner.bases_only:
            scope = self._scopes[file_of(owner.node_id)]
            qual = scope.symbols[owner.node_id].qualname
            ids = defined(ctx, scope, f"{qual}.{name}", name)
            if ids:
                return _exact(ids)
        if depth >= MAX_HOPS:
            return None
        for base in self._bases(ctx, owner.node_id, depth):
            found = self._member(ctx, _Class(base), name, depth + 1)
            if found is not None:
                return Resolution(found.targets, min(found.confidence, CONFIDENCE_INHERITED))
        return None

    def _bases(self, ctx: Lookup, class_id: str, depth: int) -> list[str]:
        scope = self._scopes[file_of(class_id)]
        found: list[str] = []
        for ref in scope.bases.get(class_id, ()):
            resolution = self._resolve(ctx, scope, ref, depth + 1)
            if resolution is not None and len(resolution.targets) == 1:
                base = resolution.targets[0]
                if base != class_id and self._scopes[file_of(base)].is_class(base):
                    found.append(base)
        return found

    def _by_name(
        self, ctx: Lookup, scope: FileScope, name: str, *, members: bool
    ) -> Resolution | None:
        """Definitions of `name` anywhere in the same language family."""
        ctx.consulted.add(name)
        return self._names.guess(scope.language, name, members=members)
