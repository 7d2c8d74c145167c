"""What a server published is kept per open document, and per closed one only while
it has problems: files opened and closed by the thousand leave nothing behind."""

from __future__ import annotations

from lsprotocol import types

from lsp.published import PublishedDiagnostics

PROBLEM = types.Diagnostic(
    range=types.Range(types.Position(0, 0), types.Position(0, 1)), message="undefined name"
)


def _publish(kept: PublishedDiagnostics, uri: str, *found: types.Diagnostic) -> None:
    kept.publish(types.PublishDiagnosticsParams(uri=uri, diagnostics=list(found)))


def test_closed_clean_documents_are_forgotten_and_problems_kept_while_they_last() -> None:
    kept = PublishedDiagnostics()
    for n in range(1000):
        uri = f"file:///repo/tmp_{n}.py"
        kept.sent(uri, 1)
        _publish(kept, uri, PROBLEM)
        assert list(kept.current(uri)) == [PROBLEM]
        kept.closed(uri)
        _publish(kept, uri)  # the server clears a closed document's diagnostics
    assert len(kept) == 0
    kept.sent("file:///repo/open.py", 1)
    _publish(kept, "file:///repo/open.py")  # open and clean: kept (a query waits on it)
    _publish(kept, "file:///repo/broken.py", PROBLEM)  # never opened, with problems
    _publish(kept, "file:///repo/clean.py")  # never opened, clean: nothing to keep
    assert len(kept) == 2
    assert list(kept.current("file:///repo/broken.py")) == [PROBLEM]
    assert list(kept.current("file:///repo/clean.py")) == []
    kept.closed("file:///repo/open.py")
    assert len(kept) == 1
