"""Resolve one reference to the symbols it names, through the import structure.

Lookups go: the enclosing scopes of the file, then what its imports bind
(following re-exports and star imports), then what it sees unqualified (Go
package siblings, C/C++ includes). A qualifier is followed segment by
segment (`self`/`this`, modules, classes and their bases, and what values
stand for: map.linking.values). A qualifier typed as something not ours (a
library's module, an instance of a library's type) makes the use `OUTSIDE`:
never guessed. When none of that answers, a name may still be guessed by name
(map.linking.resolution). A C or C++ declaration found is replaced by
its definitions (map.linking.definitions), and a call of a function-like macro reaches
what its body calls (map.linking.macros).

Every name looked up in another file or in the global name index is added
to `consulted`: the linker re-resolves a reference only when a changed
file defines (or defined) one of the names it consulted.
"""

from __future__ import annotations

from collections.abc import Mapping

from map.extraction.node_text import CALLED, ELEMENT
from map.linking.conditions import settle, undecided
from map.linking.definitions import DECLARING_LANGUAGES, Definitions
from map.linking.lookup import (
    SELF_WORDS,
    SUPER_WORDS,
    AnswerKey,
    Exports,
    Lookup,
    RefKey,
    Trace,
    answer_key,
    defined,
    see,
    segments,
    shadowed_names,
)
from map.linking.macros import Macros
from map.linking.members import (
    FIELD_LANGUAGES,
    INHERITED_BARE,
    INHERITED_KINDS,
    PACKAGE_METHOD_LANGUAGES,
)
from map.linking.modules import SCRIPT_LANGUAGES
from map.linking.namespaces import SEPARATOR, NamespaceSteps
from map.linking.resolution import (
    BUILTIN_MEMBERS,
    BY_NAME_LANGUAGES,
    CALLABLE_KINDS,
    CONFIDENCE_EXACT,
    CONFIDENCE_INHERITED,
    LEXICAL_CONSTANT_LANGUAGES,
    OUTSIDE,
    Declarations,
    NameIndex,
    Resolution,
    file_of,
)
from map.linking.resolution import exact as _exact
from map.linking.scopes import Binding, FileScope, ModuleBinding, NameBinding
from map.linking.siblings import Siblings
from map.linking.tables import TABLE_LANGUAGES, table_members
from map.linking.values import (
    FOREIGN,
    NOWHERE,
    ClassTarget,
    ElementsTarget,
    ModuleTarget,
    Target,
)
from map.model import Reference

CONSTRUCTOR_NAMES = {"python": "__init__", "php": "__construct"}
"""The method a call of a class runs, per language (an edge goes to it too)."""
VALUES = "values"
"""The kind of a reference that takes a function as a value (map.model.ReferenceKind)."""
VALUE_KINDS = frozenset({"variable", "constant"})
CLASS_WORDS = {"python": frozenset({"cls"}), "php": frozenset({"self", "static"})}
"""A class's names for itself that build one when called: a Python classmethod's
`cls(...)`, PHP's `new self(...)` and `new static(...)`."""


Answer = tuple[Resolution | None, frozenset[str]]
"""What a reference names (None: none of ours), and the names its lookup consulted."""


class Resolver(NamespaceSteps):
    """Answers name lookups against every file's scope and the global name index (what
    a value stands for: `ValueLookups`; a class's members: `MemberLookups`; a
    qualifier's next segment: `QualifierSteps`; a PHP namespace: `NamespaceSteps`)."""

    def __init__(
        self,
        scopes: Mapping[str, FileScope],
        defs_by_name: Mapping[str, set[str]],
        declarations: Mapping[str, Declarations] | None = None,
    ) -> None:
        """`declarations`: what guesses by name read of each file, when lighter to have
        than its scope (default: the scopes)."""
        self._scopes = scopes
        self._defs = defs_by_name
        self._exports = Exports(scopes)
        self._names = NameIndex(scopes if declarations is None else declarations, defs_by_name)
        self._definitions = Definitions(scopes, defs_by_name)
        self._macros = Macros(scopes, self._macro_call)
        self._siblings = Siblings(scopes)
        self._members: dict[tuple[str, bool, str, int], tuple[Resolution | None, Trace]] = {}
        self._file = ""
        self._shadowed: frozenset[str] = frozenset()
        """The names `_file` defines or assigns below module level (see `answer_key`)."""
        self._in_file: dict[AnswerKey, Answer] = {}
        """The answers for the references of `_file` (a file uses one name many times),
        by `answer_key` and by the reference's own `RefKey`."""
        self._locals: dict[tuple[str, str], tuple[Target, frozenset[str]]] = {}
        """What the names given values in `_file` stand for as receivers (`_local_value`)."""

    def forget(self) -> None:
        """Drop the lookups remembered so far; call whenever scopes or definitions change."""
        self._exports.forget()
        self._names.forget()
        self._definitions.forget()
        self._macros.forget()
        self._siblings.forget()
        self._members.clear()
        self._in_file.clear()
        self._locals.clear()

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
            self._locals.clear()
        known = self._in_file.get(ref)
        if known is None:
            key = answer_key(self._scopes[path], ref, self._shadowed)
            known = self._in_file.get(key)
            if known is None:
                names: set[str] = set()
                scope, name, qualifier, kind = ref
                value = Reference(name, kind, NOWHERE, scope, qualifier)
                known = (self._resolve_new(path, value, names), frozenset(names))
                self._in_file[key] = known
            self._in_file[ref] = known
        return known

    def _resolve_new(self, path: str, ref: Reference, consulted: set[str]) -> Resolution | None:
        ctx = Lookup(path, consulted)
        scope = self._scopes[path]
        found = self._resolve(ctx, scope, ref, 0)
        if found is not None and ref.kind == VALUES:
            found = self._callable(found)
        elif found is not None and ref.kind == "calls" and scope.language == "php":
            found = self._callable(found) or found  # `->immutable()`, not `$immutable`
        if found is not None and scope.language in DECLARING_LANGUAGES:
            found = self._definitions.resolve(ctx, found, ref.scope)
            found = self._definitions.one_of(ctx, found) if found is not None else None
            found = settle(self._scopes, found) if found is not None else None
            if found is not None and ref.kind == "calls":
                return self._macros.expand(ctx, found)
            return found
        if found is None or ref.kind != "calls" or scope.language not in CONSTRUCTOR_NAMES:
            return found
        target = self._class_of(found.targets)
        if not isinstance(target, ClassTarget):
            return found
        constructor = self._member(ctx, target, CONSTRUCTOR_NAMES[scope.language], 0)
        if constructor is None:
            return found
        return Resolution(found.targets, found.confidence, constructor.targets)

    def _macro_call(
        self, ctx: Lookup, scope: FileScope, scope_id: str, name: str
    ) -> Resolution | None:
        """What a call of `name` in a C or C++ macro's body (`scope_id`) names."""
        found = self._unqualified(ctx, scope, scope_id, name)
        return self._definitions.resolve(ctx, found, scope_id) if found is not None else None

    def _callable(self, found: Resolution) -> Resolution | None:
        """A function taken as a value names only functions and methods, and is never
        guessed: what else a name could be (a constant, a field on a receiver of
        unknown type) is no call."""
        if found.confidence < CONFIDENCE_INHERITED:
            return None
        targets = tuple(
            t for t in found.targets if self._scopes[file_of(t)].symbols[t].kind in CALLABLE_KINDS
        )
        if targets == found.targets:
            return found
        return Resolution(targets, found.confidence) if targets else None

    def _resolve(
        self, ctx: Lookup, scope: FileScope, ref: Reference, depth: int
    ) -> Resolution | None:
        if ref.qualifier is None:
            inherited = ref.kind in INHERITED_KINDS and scope.language in INHERITED_BARE
            return self._unqualified(ctx, scope, ref.scope, ref.name, inherited=inherited)
        return self._qualified(ctx, scope, ref, depth)

    def _unqualified(
        self, ctx: Lookup, scope: FileScope, scope_id: str, name: str, *, inherited: bool = False
    ) -> Resolution | None:
        """What a bare name names; `inherited`: a call, which may name a method the
        class around it inherits (map.linking.members)."""
        if name in CLASS_WORDS.get(scope.language, ()):  # `cls(...)` builds its class
            owner = scope.enclosing_class(scope_id)
            return _exact((owner,)) if owner is not None else None
        ids = self._local(ctx, scope, scope_id, name)
        where = scope.assigning(scope_id, name) if not ids else None
        if where is not None:  # `f = mod.func; f()` calls mod.func; an instance's call is not ours
            givens = scope.assigned.givens((where, name))
            target = self._assigned(ctx, scope, where, name, givens, 0)
            if isinstance(target, ClassTarget) and not any(called for _, called in givens):
                return _exact((target.node_id,))
            if target == FOREIGN:  # `run = lib.run; run()`, or a library instance called
                return OUTSIDE
            return target if isinstance(target, Resolution) else None
        if not ids:
            see(ctx, scope, name)
            binding = scope.bindings.get(name)
            if binding is not None:
                return _exact(self._bound(ctx, binding, name)) if binding.files else OUTSIDE
            ids = self._exports.find(ctx, scope.stars, name)
        if not ids and scope.language in PACKAGE_METHOD_LANGUAGES:
            ids = self._siblings.find(ctx, scope, name, name)
        # one translation unit; beside a definition of its own under an undecided condition too
        every = (not ids or undecided(scope, ids)) and scope.language in DECLARING_LANGUAGES
        for visible in () if scope.language in PACKAGE_METHOD_LANGUAGES else scope.visible_files:
            if ids and not every:
                break
            ids += self._visible(ctx, scope, scope_id, self._scopes[visible], name)
        if ids:  # in C, all that the includes declare hold at once (alternatives: `one_of`)
            return Resolution(ids, CONFIDENCE_EXACT) if every and ids else _exact(ids)
        found = self._inherited(ctx, scope, scope_id, name) if inherited else None
        if found is not None:
            return found
        if scope.language in BY_NAME_LANGUAGES:
            return self._by_name(ctx, scope, name, members=False)
        return None

    def _local(self, ctx: Lookup, scope: FileScope, scope_id: str, name: str) -> tuple[str, ...]:
        """`name` in the scopes enclosing `scope_id`, innermost first; a top-level
        definition is hidden by a local of its name in a function around the use (a
        parameter, `app = Flask()` in a fixture named `app`)."""
        see(ctx, scope, name)
        by_qual = scope.by_qual
        for prefix in scope.lookup_prefixes(scope_id):
            ids = by_qual.get(prefix + name)
            if scope.language in SCRIPT_LANGUAGES:
                ids = tuple(
                    i for i in ids or scope.numbered(prefix + name) if not scope.literal_member(i)
                )
            if ids:
                return () if not prefix and self._shadows(scope, scope_id, name) else ids
        return ()

    @staticmethod
    def _shadows(scope: FileScope, scope_id: str, name: str) -> bool:
        """Whether a function around `scope_id` gives `name` a value of its own (a
        parameter, a local), hiding the top-level definition of that name (a class
        body's, a struct's fields, hide nothing)."""
        where = scope.assigning(scope_id, name)
        return where is not None and where != scope.path and not scope.is_class(where)

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
        if head.endswith(SEPARATOR) and scope.language == "php":  # `\A\B\C::make()`
            target: Target = ModuleTarget(self._namespace(ctx, scope, head, [*rest, ref.name][0]))
        else:
            target = self._head(ctx, scope, ref.scope, head, depth)
        for segment in rest:
            target = self._step(ctx, target, segment, depth)
        if target == FOREIGN:  # a library's type, which an `instanceof` may narrow to ours
            target = self._narrowed(ctx, scope, ref, depth) or target
        if isinstance(target, ModuleTarget):
            if not target.files:  # a library's module, or an instance of a library's type
                return OUTSIDE
            ids = self._exports.find(ctx, target.files, ref.name)
            if not ids and scope.language in TABLE_LANGUAGES:  # the table the module returns
                ids = table_members(ctx, self._scopes, target.files, ref.name)
            return _exact(ids)
        if isinstance(target, ClassTarget):
            member = self._member(ctx, target, ref.name, depth)
            if member is None and ref.kind == "calls":  # `self.undefined(...)`: a class held
                held = self._class_held(ctx, target.node_id, ref.name, depth)
                return _exact((held,)) if held is not None else None
            return member
        if scope.language == "python" and (ref.kind == "references" or ref.name in BUILTIN_MEMBERS):
            return None  # a use (not a call), or a builtin type's method, on an unknown receiver
        found = self._unknown_head(ctx, scope, ref) if target is None else None
        return found or self._by_name(ctx, scope, ref.name, members=True)

    def _head(self, ctx: Lookup, scope: FileScope, scope_id: str, head: str, depth: int) -> Target:
        if head in SELF_WORDS or head in SUPER_WORDS:
            owner = scope.enclosing_class(scope_id) or self._declaring_class(ctx, scope, scope_id)
            return ClassTarget(owner, bases_only=head in SUPER_WORDS) if owner is not None else None
        if head.endswith(ELEMENT):  # `items[0].run()`: one of what `items` holds
            held = self._head(ctx, scope, scope_id, head[: -len(ELEMENT)], depth)
            return held.of if isinstance(held, ElementsTarget) else None
        if head.endswith(CALLED):  # `make().run()`: what `make` returns
            return self._result(
                ctx, self._unqualified(ctx, scope, scope_id, head[: -len(CALLED)]), depth
            )
        ids = self._local(ctx, scope, scope_id, head)
        where = scope.assigning(scope_id, head) if not ids else None
        if where is not None:
            return self._local_value(ctx, scope, where, head, depth)
        if not ids:
            see(ctx, scope, head)
            binding = scope.bindings.get(head)
            if isinstance(binding, ModuleBinding):
                return ModuleTarget(binding.files)
            if binding is not None:
                ids = self._bound(ctx, binding, head)
                if not ids and not binding.files:
                    return FOREIGN
                if not ids:  # `from .globals import request`: a module's variable
                    name = binding.name if isinstance(binding, NameBinding) else head
                    return self._module_variable(ctx, binding.files, name, depth)
        if not ids and scope.language in PACKAGE_METHOD_LANGUAGES:  # a package sibling's
            ids = self._siblings.find(ctx, scope, head, head)
        for visible in scope.visible_files if not ids and scope.language == "php" else ():
            ids = self._visible(ctx, scope, scope_id, self._scopes[visible], head)
            if ids:  # `Other::make()`: a class of the namespace's folder
                break
        if not ids and scope.language in FIELD_LANGUAGES:  # a field of the class around
            return self._field(ctx, scope, scope_id, head, depth)
        target = self._class_of(ids)
        if target is None and len(ids) == 1 and self._is_value(ids[0]):
            return self._module_variable(ctx, (file_of(ids[0]),), head, depth)
        return target

    def _is_value(self, node_id: str) -> bool:
        """Whether a symbol is a variable or constant (what it holds is its value)."""
        return self._scopes[file_of(node_id)].symbols[node_id].kind in VALUE_KINDS

    def _local_value(
        self, ctx: Lookup, scope: FileScope, where: str, head: str, depth: int
    ) -> Target:
        """What a name given its value in `where` stands for as a receiver; for lookups
        of the file asked about, remembered with what it consulted (a function's `r`
        is the receiver of many calls)."""
        memo = ctx.seen is None and not ctx.following and depth == 0 and ctx.file == scope.path
        key = (where, head)
        known = self._locals.get(key) if memo else None
        if known is not None:
            ctx.consulted |= known[1]
            return known[0]
        inner = Lookup(ctx.file, set()) if memo else ctx
        found = self._assigned(inner, scope, where, head, scope.assigned.givens(key), depth)
        target = found if not isinstance(found, Resolution) else self._class_of(found.targets)
        if memo:
            ctx.consulted |= inner.consulted
            if inner.cyclic:
                ctx.cyclic = True
            else:
                self._locals[key] = (target, frozenset(inner.consulted))
        return target

    def _by_name(
        self, ctx: Lookup, scope: FileScope, name: str, *, members: bool
    ) -> Resolution | None:
        """Definitions of `name` anywhere in the same language family."""
        ctx.consulted.add(name)
        return self._names.guess(scope.language, name, members=members)
