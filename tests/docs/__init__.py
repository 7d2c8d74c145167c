"""Helpers of tests/test_docs.py: the pages a newcomer reads, taken apart
(pages), the command lines they name, checked against the real CLI (synopsis),
and their examples, run on a copy of the bundled example (run)."""
