"""A class's members as a reference's lookup finds them: its own, else its bases'
(each base resolved as the reference naming it), at most `MAX_HOPS` deep, each
answer remembered with the names it consulted; a bare call in a method that names a
method of the class's bases (`_inherited`); the class a C++ method defined out of line
belongs to. `MemberLookups` is the part of the resolver (map.linking.resolve) that
looks members up.
"""

from __future__ import annotations

from collections.abc import Mapping

from map.linking.definitions import DECLARING_LANGUAGES
from map.linking.lookup import Lookup, Trace, defined, recording, replay, trace
from map.linking.resolution import CONFIDENCE_INHERITED, OUTSIDE, Resolution, file_of
from map.linking.resolution import exact as _exact
from map.linking.scopes import FileScope
from map.linking.siblings import Siblings
from map.linking.tables import TABLE_LANGUAGES, own_table
from map.linking.values import MAX_HOPS, ClassTarget, Target, ValueLookups
from map.model import Reference

INHERITED_BARE = frozenset({"ruby", "java", "csharp", "kotlin", "scala", "swift"})
"""Languages where a bare call in a class's method may name a method its bases (or
mixins) define."""
INHERITED_KINDS = frozenset({"calls", "values"})
"""The uses of a bare name that may be such a call."""
TYPED_LANGUAGES = frozenset({"java", "csharp", "kotlin", "scala", "swift"})
"""Languages whose types are capitalized names: a call on a capitalized name no file
defines is a library type's."""
FIELD_LANGUAGES = frozenset({"java"})
"""Languages where a bare name in a method may be a field of its class (`data.get(k)`
with `Map data` declared in the class body)."""
PACKAGE_METHOD_LANGUAGES = frozenset({"go"})
"""Languages whose methods may be declared in any file of their type's package (and
whose package siblings are looked up through map.linking.siblings)."""


class MemberLookups(ValueLookups):
    """Members of classes and of their bases, over every file's scope; the resolver
    supplies how a base's reference resolves."""

    _siblings: Siblings
    _defs: Mapping[str, set[str]]
    _members: dict[tuple[str, bool, str, int], tuple[Resolution | None, Trace]]

    def _member(self, ctx: Lookup, owner: ClassTarget, name: str, depth: int) -> Resolution | None:
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

    def _find_member(
        self, ctx: Lookup, owner: ClassTarget, name: str, depth: int
    ) -> Resolution | None:
        if not owner.bases_only:
            scope = self._scopes[file_of(owner.node_id)]
            qual = scope.symbols[owner.node_id].qualname
            ids = defined(ctx, scope, f"{qual}.{name}", name)
            if not ids and scope.language in PACKAGE_METHOD_LANGUAGES:
                ids = self._siblings.find(ctx, scope, f"{qual}.{name}", name)
            if ids:
                return _exact(ids)
        if depth >= MAX_HOPS:
            return None
        for base in self._bases(ctx, owner.node_id, depth):
            found = self._member(ctx, ClassTarget(base), name, depth + 1)
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
        if scope.language == "php":  # its traits' methods are its own, then its parent's
            found.sort(key=self._php_rank)
        return found

    def _php_rank(self, base: str) -> int:
        """0 for a trait, 1 for a class, 2 for an interface."""
        symbol = self._scopes[file_of(base)].symbols[base]
        return 0 if symbol.form == "trait" else 2 if symbol.kind == "interface" else 1

    def _inherited(
        self, ctx: Lookup, scope: FileScope, scope_id: str, name: str
    ) -> Resolution | None:
        """A bare call in a class's method that names a method of its bases (`debug "x"`
        in a Ruby subclass); None when it names none."""
        owner = scope.enclosing_class(scope_id)
        if owner is None:
            return None
        found = self._member(ctx, ClassTarget(owner, bases_only=True), name, 0)
        return found if found is not None and found.targets else None

    def _field(self, ctx: Lookup, scope: FileScope, scope_id: str, name: str, depth: int) -> Target:
        """What a field of the class around `scope_id` holds, when `name` is one."""
        owner = scope.enclosing_class(scope_id)
        return self._attribute(ctx, owner, name, depth) if owner is not None else None

    def _unknown_head(self, ctx: Lookup, scope: FileScope, ref: Reference) -> Resolution | None:
        """A call on a receiver the lookups could not type: a Lua table's (`own_table`),
        or, where types are capitalized, a type no file of the project defines
        (C#'s `Enum.GetValues`, Java's `Objects.hash`): `OUTSIDE`. None: unknown."""
        qualifier = ref.qualifier or ""
        if scope.language in TABLE_LANGUAGES:
            return own_table(scope, ref.scope, qualifier, ref.name)
        head = qualifier.split(".", 1)[0]
        if scope.language not in TYPED_LANGUAGES or not head[:1].isupper() or "(" in head:
            return None
        ctx.consulted.add(head)
        if self._defs.get(head) or scope.assigning(ref.scope, head) is not None:
            return None
        return OUTSIDE

    def _declaring_class(self, ctx: Lookup, scope: FileScope, scope_id: str) -> str | None:
        """The class a method defined out of line (C++ `Shape::area` in a .cpp) belongs
        to, as a file it includes declares it."""
        symbol = scope.symbols.get(scope_id)
        if symbol is None or not symbol.container or scope.language not in DECLARING_LANGUAGES:
            return None
        qual = ".".join(symbol.container)
        for path in scope.visible_files:
            other = self._scopes[path]
            for node_id in defined(ctx, other, qual, symbol.container[-1]):
                if other.is_class(node_id):
                    return node_id
        return None
