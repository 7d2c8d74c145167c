"""The no-parse test a file must pass before its symbols are compared by name-blind body."""

from __future__ import annotations

from memory.bodies import body_fingerprint, body_pattern

FACT = 'def fact(n):\n    """fact of n."""\n    return 1 if n < 2 else n * fact(n - 1)\n'


def squeeze(text: str) -> str:
    return "".join(text.split())


def test_a_renamed_and_reformatted_copy_passes_and_has_the_same_body() -> None:
    renamed = (
        "x = 1\n"
        'def factorial(n):\n  """factorial of n."""\n'
        "  return 1 if n<2 else n*factorial(n-1)\n"
    )
    body = "\n".join(renamed.splitlines()[1:]) + "\n"
    assert body_fingerprint(body, "factorial") == body_fingerprint(FACT, "fact")
    assert body_pattern(FACT, "fact").search(squeeze(renamed))


def test_an_edited_body_or_a_second_name_fails() -> None:
    edited = 'def factorial(n):\n    """factorial of n."""\n    return n * factorial(n - 2)\n'
    two_names = (
        'def factorial(n):\n    """factorial of n."""\n    return 1 if n < 2 else n * fact(n - 1)\n'
    )
    pattern = body_pattern(FACT, "fact")
    assert not pattern.search(squeeze(edited))
    assert not pattern.search(squeeze(two_names))


def test_a_line_cut_short_where_the_stored_text_ends_is_left_out() -> None:
    cut = FACT + "    # a comment that was cut sh"
    assert body_pattern(cut, "fact").search(squeeze(FACT))
