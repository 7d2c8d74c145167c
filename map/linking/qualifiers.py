"""A qualifier followed one segment further (`a.b` then `.c`): into a module's
exports or submodules, a class's members and attributes, what a call returns, one
of what a container holds. A module that is not ours stays not ours."""

from __future__ import annotations

from map.extraction.node_text import CALLED, ELEMENT
from map.linking.lookup import Lookup
from map.linking.members import MemberLookups
from map.linking.resolution import exact, file_of
from map.linking.values import MAX_HOPS, ClassTarget, ElementsTarget, ModuleTarget, Target


class QualifierSteps(MemberLookups):
    """What the next segment of a qualifier stands for, over every file's scope."""

    def _step(self, ctx: Lookup, target: Target, segment: str, depth: int) -> Target:
        if isinstance(target, ModuleTarget) and not target.files:
            return target  # inside a module that is not ours
        if segment.endswith(ELEMENT):  # `r.middlewares[i].run`: one of what it holds
            held = self._step(ctx, target, segment[: -len(ELEMENT)], depth)
            return held.of if isinstance(held, ElementsTarget) else None
        if segment.endswith(CALLED):  # `app.test_client().open`: what the call returns
            name = segment[: -len(CALLED)]
            if isinstance(target, ClassTarget):
                found = self._result(ctx, self._member(ctx, target, name, depth), depth)
                return self._late(ctx, target, found, depth)
            if isinstance(target, ModuleTarget) and target.files:
                return self._result(ctx, exact(self._exports.find(ctx, target.files, name)), depth)
            return None
        if isinstance(target, ModuleTarget):
            if not target.files:
                return target
            ids = self._exports.find(ctx, target.files, segment)
            if ids:
                return self._class_of(ids)
            submodule = self._submodule(ctx, target.files[0], segment)
            return submodule or self._module_variable(ctx, target.files, segment, depth)
        if isinstance(target, ClassTarget):  # a nested class, a property's value, an attribute
            member = self._member(ctx, ClassTarget(target.node_id), segment, depth)
            found = self._result(ctx, member, depth) if member is not None else None
            return found or self._attribute(ctx, target.node_id, segment, depth)
        return None

    def _late(self, ctx: Lookup, receiver: ClassTarget, found: Target, depth: int) -> Target:
        """What a PHP method a subclass inherits gives when it gives its own class
        (`Writer::fromString()`, declared `: static` in AbstractCsv): the subclass."""
        if not isinstance(found, ClassTarget) or found.node_id == receiver.node_id:
            return found
        scope = self._scopes[file_of(receiver.node_id)]
        if scope.language != "php" or receiver.bases_only or not scope.bases.get(receiver.node_id):
            return found
        ancestors, frontier = set(), [receiver.node_id]
        for _ in range(MAX_HOPS):
            frontier = [
                b for c in frontier for b in self._bases(ctx, c, depth) if b not in ancestors
            ]
            ancestors.update(frontier)
        return ClassTarget(receiver.node_id) if found.node_id in ancestors else found

    def _submodule(self, ctx: Lookup, package_file: str, segment: str) -> Target:
        ctx.consulted.add(segment)
        directory = package_file.rsplit("/", 1)[0] if "/" in package_file else ""
        prefix = f"{directory}/" if directory else ""
        for candidate in (f"{prefix}{segment}.py", f"{prefix}{segment}/__init__.py"):
            if candidate in self._scopes:
                return ModuleTarget((candidate,))
        return None
