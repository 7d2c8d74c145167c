"""What a value stands for, as far as a reference's lookup needs it: an assignment's
value, an alias, what a call returns, an instance attribute, a module variable.

`f = mod.func; f()` calls `mod.func`; `app = Flask(); app.run()` calls
`Flask.run`; `self.app = app` with `app: Flask` makes `self.app.run()` a call
of `Flask.run`. Each is one assigned value (map.linking.assigned) followed to a
module, a class (an instance of it) or the symbols it names, at most
`MAX_HOPS` deep. `ValueLookups` is the part of the resolver (map.linking.resolve)
that follows values; the resolver supplies the lookups they start from.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, replace

from map.extraction.node_text import ELEMENT
from map.linking.assigned import UNKNOWN, Givens
from map.linking.fixtures import fixture_files, requests_fixtures
from map.linking.lookup import Exports, Lookup, defined, see
from map.linking.resolution import (
    CALLABLE_KINDS,
    CONFIDENCE_INHERITED,
    Resolution,
    file_of,
    is_outside,
)
from map.linking.resolution import exact as _exact
from map.linking.scopes import FileScope, NameBinding
from map.model import GIVES, NARROWED, RETURNS, Assignment, Range, Reference

MAX_HOPS = 6
"""How many values, bases or assignments deep a lookup follows."""


@dataclass(frozen=True, slots=True)
class ModuleTarget:
    """A module (its files; none: a module that is not ours, or a value of its: `FOREIGN`)."""

    files: tuple[str, ...]


FOREIGN = ModuleTarget(())
"""Something typed as not ours: a library's module, or an instance of a library's type
(`t *testing.T`, `runner = CliRunner()` with CliRunner imported from a library)."""


@dataclass(frozen=True, slots=True)
class ClassTarget:
    """A class, or an instance of it (`bases_only`: `super()`, its bases' members)."""

    node_id: str
    bases_only: bool = False


@dataclass(frozen=True, slots=True)
class ElementsTarget:
    """A container of what `of` stands for (a Go slice or map, a Python `list[T]`): its
    loop variables hold one (map.extraction.node_text.ELEMENT)."""

    of: ModuleTarget | ClassTarget | ElementsTarget


Target = ModuleTarget | ClassTarget | ElementsTarget | None
"""What a qualifier's segment stands for (None: nothing known)."""

_HELD = (ModuleTarget, ClassTarget, ElementsTarget)
"""What a container can be known to hold."""

NOWHERE = Range(0, 0, 0, 0)
"""The range of a reference made up for a lookup."""


class ValueLookups(ABC):
    """What values stand for, over every file's scope; the resolver supplies the lookups
    a value's is made of."""

    _scopes: Mapping[str, FileScope]
    _exports: Exports

    @abstractmethod
    def _resolve(
        self, ctx: Lookup, scope: FileScope, ref: Reference, depth: int
    ) -> Resolution | None:
        """What a reference in `scope` names."""

    @abstractmethod
    def _head(self, ctx: Lookup, scope: FileScope, scope_id: str, head: str, depth: int) -> Target:
        """What the first segment of a qualifier stands for."""

    @abstractmethod
    def _step(self, ctx: Lookup, target: Target, segment: str, depth: int) -> Target:
        """What the next segment of a qualifier stands for, after `target`."""

    @abstractmethod
    def _member(self, ctx: Lookup, owner: ClassTarget, name: str, depth: int) -> Resolution | None:
        """Member `name` of a class or of its bases."""

    @abstractmethod
    def _bases(self, ctx: Lookup, class_id: str, depth: int) -> list[str]:
        """The classes a class derives from, as far as they are ours."""

    def _assigned(
        self, ctx: Lookup, scope: FileScope, where: str, name: str, givens: Givens, depth: int
    ) -> Target | Resolution:
        """What local `name` stands for, from what scope `where` gives it: its one
        assignment's value (`_follow`), or for a test's parameter, what the pytest
        fixture of its name gives (`_fixture`); several assignments, what they all stand
        for alike (one that reads the name itself, `x = x.f()`, only outside its own
        lookup). Differing ones, or an unknown value among them: nothing."""
        if givens == UNKNOWN and requests_fixtures(scope, where):
            return self._fixture(ctx, scope, name, depth)
        if not givens or any(not value for value, _ in givens):
            return None
        if len(givens) == 1:
            return self._follow(ctx, scope, Assignment(name, where, *givens[0]), depth)
        assigned = (Assignment(name, where, *given) for given in givens)
        found = {  # `options = options.update_width(w)` with `options: ConsoleOptions`
            self._follow(ctx, scope, one, depth) for one in assigned if one not in ctx.following
        }
        return found.pop() if len(found) == 1 else None

    def _fixture(self, ctx: Lookup, scope: FileScope, name: str, depth: int) -> Target:
        """What the pytest fixture `name` nearest to the file gives (map.linking.fixtures)."""
        ctx.consulted.add(name)  # a conftest.py that comes to define it moves the answer
        for path in fixture_files(scope.path):
            other = self._scopes.get(path)
            if other is None:
                continue
            for node_id in defined(ctx, other, name, name):
                givens = other.assigned.givens((node_id, GIVES))
                if givens:
                    found = self._assigned(ctx, other, node_id, GIVES, givens, depth + 1)
                    return None if isinstance(found, Resolution) else found
        return None

    def _follow(
        self, ctx: Lookup, scope: FileScope, assignment: Assignment, depth: int
    ) -> Target | Resolution:
        """What an assignment's value stands for: an alias's target (a module, a class,
        or the symbols of a name), or the instance of the class a call constructs."""
        if not assignment.value or assignment in ctx.following or depth >= MAX_HOPS:
            return None
        if ELEMENT in assignment.value:
            return self._elements(ctx, scope, assignment, depth)
        qualifier, _, name = assignment.value.rpartition(".")
        ctx.following.add(assignment)
        try:
            if not assignment.called:
                aliased = self._aliased(ctx, scope, assignment, depth)
                if aliased is not None:
                    return aliased
            value = Reference(name, "calls", NOWHERE, assignment.scope, qualifier or None)
            resolution = self._resolve(ctx, scope, value, depth + 1)
        finally:
            ctx.following.discard(assignment)
        if is_outside(resolution):  # a library's type, or what a library's function gives
            return FOREIGN
        if resolution is None or resolution.confidence < CONFIDENCE_INHERITED:
            return None
        target = self._class_of(resolution.targets)
        if assignment.called:  # an instance of the class, or what the function returns
            return target or self._returns(ctx, resolution.targets, depth)
        return target or resolution

    def _elements(
        self, ctx: Lookup, scope: FileScope, assignment: Assignment, depth: int
    ) -> Target:
        """What a container's value (`[]Flag`: Flags) or a loop variable's (`chain[]`:
        one of what `chain` holds) stands for."""
        value = assignment.value
        if value.startswith(ELEMENT):
            held = replace(assignment, value=value[len(ELEMENT) :], called=True)
            found = self._follow(ctx, scope, held, depth + 1)
            return ElementsTarget(found) if isinstance(found, _HELD) else None
        if not value.endswith(ELEMENT):
            return None
        container = replace(assignment, value=value[: -len(ELEMENT)], called=False)
        found = self._follow(ctx, scope, container, depth + 1)
        return found.of if isinstance(found, ElementsTarget) else None

    def _aliased(
        self, ctx: Lookup, scope: FileScope, assignment: Assignment, depth: int
    ) -> Target | Resolution:
        """What an alias's (dotted) value names as a module, a class, an instance or
        a member (`j = flask.json`, `app = self.app`, `f = self.method`: the method
        itself, not what it returns); None leaves it to the name lookup (a function)."""
        head, *rest = assignment.value.split(".")
        target = self._head(ctx, scope, assignment.scope, head, depth + 1)
        if not rest:
            return target
        for segment in rest[:-1]:
            target = self._step(ctx, target, segment, depth)
        if isinstance(target, ClassTarget):  # `move_to = Control.move_to`: the method itself
            member = self._member(ctx, target, rest[-1], depth)
            property_ = (
                scope.language == "php"
                and member is not None
                and not any(self._is_callable(t) for t in member.targets)
            )
            if member is not None and not property_:  # `$this->routes`: what it holds
                return member
        stepped = self._step(ctx, target, rest[-1], depth)
        if stepped is not None:
            return stepped
        if isinstance(target, ModuleTarget):
            return _exact(self._exports.find(ctx, target.files, rest[-1])) if target.files else None
        if isinstance(target, ClassTarget):
            return self._member(ctx, target, rest[-1], depth)
        return None

    def _module_variable(
        self, ctx: Lookup, files: tuple[str, ...], name: str, depth: int
    ) -> Target:
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

    def _result(self, ctx: Lookup, called: Resolution | None, depth: int) -> Target:
        """What calling `called` gives: an instance of the class, or what the function
        (every one of its targets alike) is annotated to return."""
        if is_outside(called):
            return FOREIGN
        if called is None or called.confidence < CONFIDENCE_INHERITED:
            return None
        return self._class_of(called.targets) or self._returns(ctx, called.targets, depth)

    def _returns(self, ctx: Lookup, functions: tuple[str, ...], depth: int) -> Target:
        """What the functions called return, alike; of a PHP method and the property of
        its name (`immutable()`, `$immutable`), the method's."""
        results: set[Target] = set()
        callables = tuple(f for f in functions if self._is_callable(f))
        for node_id in callables or functions:
            scope = self._scopes[file_of(node_id)]
            see(ctx, scope, scope.symbols[node_id].name)
            givens = scope.assigned.givens((node_id, RETURNS))
            found = self._assigned(ctx, scope, node_id, RETURNS, givens, depth + 1)
            results.add(None if isinstance(found, Resolution) else found)
        return results.pop() if len(results) == 1 else None

    def _is_callable(self, node_id: str) -> bool:
        return self._scopes[file_of(node_id)].symbols[node_id].kind in CALLABLE_KINDS

    def _narrowed(self, ctx: Lookup, scope: FileScope, ref: Reference, depth: int) -> Target:
        """The class an `instanceof` check in the function around `ref` says its
        receiver may hold (map.model.NARROWED), or None."""
        name = NARROWED + (ref.qualifier or "")
        givens = scope.assigned.givens((ref.scope, name))
        found = self._assigned(ctx, scope, ref.scope, name, givens, depth) if givens else None
        return found if isinstance(found, ClassTarget) else None

    def _attribute(self, ctx: Lookup, class_id: str, name: str, depth: int) -> Target:
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

    def _class_held(self, ctx: Lookup, class_id: str, name: str, depth: int) -> str | None:
        """The class an instance attribute holds itself, not an instance of it, when
        every value given it agrees (`self.undefined: type[Undefined]`, `self.kind =
        Widget`): calling the attribute constructs one."""
        if depth >= MAX_HOPS:
            return None
        scope = self._scopes[file_of(class_id)]
        see(ctx, scope, name)
        assigned = scope.attribute(class_id, name)
        if not assigned:
            bases = self._bases(ctx, class_id, depth)
            return next(
                (h for b in bases if (h := self._class_held(ctx, b, name, depth + 1))), None
            )
        held = {self._class_named(ctx, scope, one, depth + 1) for one in assigned}
        return held.pop() if len(held) == 1 else None

    def _class_named(
        self, ctx: Lookup, scope: FileScope, assignment: Assignment, depth: int
    ) -> str | None:
        """The class an alias names itself (through the locals it is given from), not an
        instance of it; None when it is anything else."""
        if assignment.called or not assignment.value or depth >= MAX_HOPS:
            return None
        if "." not in assignment.value:
            where = scope.assigning(assignment.scope, assignment.value)
            if where is not None and (where, assignment.value) != (
                assignment.scope,
                assignment.name,
            ):
                givens = scope.assigned.get((where, assignment.value))
                named = {self._class_named(ctx, scope, one, depth + 1) for one in givens}
                return named.pop() if len(named) == 1 else None
        qualifier, _, name = assignment.value.rpartition(".")
        value = Reference(name, "calls", NOWHERE, assignment.scope, qualifier or None)
        found = self._resolve(ctx, scope, value, depth + 1)
        if found is None or found.confidence < CONFIDENCE_INHERITED:
            return None
        target = self._class_of(found.targets)
        return target.node_id if isinstance(target, ClassTarget) else None

    def _class_of(self, ids: tuple[str, ...]) -> Target:
        if len(ids) == 1 and self._scopes[file_of(ids[0])].is_class(ids[0]):
            return ClassTarget(ids[0])
        return None
