"""A loaded map keeps what scopes give their names compact (map.linking.assigned): lookups
read back exactly the `Assignment`s extraction gave, grouped by scope and name."""

from __future__ import annotations

from map.extraction.extract import extract_file
from map.linking.assigned import Assigned
from map.linking.scopes import new_scope
from map.model import Assignment

SOURCE = b"""import os
from pkg import helpers as h

client = h.Client()
client = h.other
path = os.path


class Store(h.Base):
    kind: h.Kind

    def __init__(self, user, limit=3):
        self.user = user
        self.conn = h.connect()

    def issue(self, user, token):
        for item in token:
            user = item
        result = h.make(user)
        return result

    def save(self, token) -> h.Saved:
        return token


def main(user):
    Store(user).issue(user, "t")
"""


def _grouped(assignments: tuple[Assignment, ...]) -> dict[tuple[str, str], tuple[Assignment, ...]]:
    found: dict[tuple[str, str], dict[Assignment, None]] = {}
    for a in assignments:
        found.setdefault((a.scope, a.name), {})[a] = None
    return {key: tuple(values) for key, values in found.items()}


def test_assignments_read_back_as_extracted_grouped_by_scope_and_name() -> None:
    extract = extract_file("pkg/store.py", SOURCE)
    expected = _grouped(extract.assignments)
    assert any(len(values) > 1 for values in expected.values())  # reassigned names
    assert any(not a.value for a in extract.assignments)  # parameters, loop variables
    assigned = Assigned(extract.assignments)
    assert len(assigned) == len(expected)
    assert set(assigned) == set(expected)
    assert dict(assigned.items()) == expected
    for key, values in expected.items():
        assert key in assigned
        assert assigned.get(key) == values
        assert assigned.givens(key) == tuple((a.value, a.called) for a in values)
    missing = ("pkg/store.py#Store.issue", "nothing")
    assert missing not in assigned
    assert assigned.get(missing) == ()
    assert assigned.givens(missing) == ()


def test_a_scope_answers_the_innermost_assignment_and_instance_attributes() -> None:
    scope = new_scope(extract_file("pkg/store.py", SOURCE))
    issue = "pkg/store.py#Store.issue"
    assert scope.assigning(issue, "user") == issue  # the parameter hides nothing outside
    assert scope.assigning(issue, "client") == "pkg/store.py"  # module level
    assert scope.assigning(issue, "absent") is None
    assert [a.value for a in scope.assigned.get(("pkg/store.py", "client"))] == [
        "h.Client",
        "h.other",
    ]
    assert [(a.value, a.scope) for a in scope.attribute("pkg/store.py#Store", "conn")] == [
        ("h.connect", "pkg/store.py#Store.__init__")
    ]
