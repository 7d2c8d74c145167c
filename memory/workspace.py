"""The code as it is now, seen once per anchoring or check run.

Everything a run asks git or the disk is asked once and kept for the rest
of the run: HEAD and branch, the changes since each distinct anchor commit,
each file read, each file's outline (its symbols, `map.extraction.outline`: cached by
content hash, so a file is parsed once however many references point into it). Nothing here outlives
the run: a new run sees the disk afresh.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cached_property
from pathlib import Path, PurePosixPath

from disk.errors import DiskError, MissingFileError, OutsideRootError
from disk.paths import resolve_in_root
from disk.stamps import content_hash
from disk.text import decode_source, read_source_bytes
from map import (
    FileExtract,
    Outline,
    TokenIndex,
    comment_spans,
    fingerprint_text,
    language_for,
    list_files,
    outline_file,
)
from memory.bodies import SymbolIndex
from memory.files import FileNow
from memory.git import Change, GitError, GitRepo, compose
from memory.history import History
from memory.ranges import LineIndex

OWN_DIR = ".codeanchor/"
"""codeanchor's own files (store, map snapshot): never where moved code went."""
_WORD = re.compile(r"\w+")


class Workspace:
    """Per-run caches over the root: git facts, file reads, outlines."""

    def __init__(
        self,
        root: Path,
        *,
        git: GitRepo | None = None,
        use_git: bool = True,
        known: Callable[[str], FileExtract | None] | None = None,
    ) -> None:
        """`known` gives extractions made elsewhere (the code map), used when content matches."""
        self.root = root.resolve()
        self._known = known
        self.git = git if git is not None else (GitRepo.discover(self.root) if use_git else None)
        self._changes: dict[str, dict[str, Change] | None] = {}
        self._files: dict[str, FileNow | None] = {}
        self._outlines: dict[tuple[str, str], Outline | None] = {}
        self._indexes: dict[tuple[str, str], SymbolIndex] = {}
        self._bases: dict[str, str | None] = {}
        self._candidates: dict[str | None, list[FileNow]] = {}
        self._line_indexes: dict[tuple[str, str, bool], LineIndex] = {}
        self._words: dict[tuple[str, str], frozenset[str]] = {}
        self._squeezed: dict[tuple[str, str], str] = {}
        self._tokens: dict[tuple[str, str], tuple[list[int], TokenIndex]] = {}
        self.history = History(self)
        """What the code was at anchor commits (old versions from git)."""
        self._problems: dict[str, str | None] = {}
        self._outside: dict[str, bool] = {}

    @cached_property
    def head(self) -> str | None:
        """The commit checked out (None outside git or before the first commit)."""
        return self.git.head() if self.git else None

    @cached_property
    def branch(self) -> str | None:
        """The branch checked out (None outside git or when detached)."""
        return self.git.branch() if self.git else None

    @cached_property
    def tracked(self) -> frozenset[str]:
        """Paths git tracks under the root (empty outside git)."""
        return frozenset(self.git.tracked()) if self.git else frozenset()

    def is_dirty(self, path: str) -> bool:
        """True when `path` is not HEAD's content: edited, untracked or ignored.

        Never outside git (there is no HEAD to differ from); always before the
        first commit. A dirty anchor is always checked by content, never by git.
        """
        if self.git is None:
            return False
        changes = self.changes(self.head) if self.head else None
        return changes is None or path in changes or path not in self.tracked

    def changes(self, commit: str) -> dict[str, Change] | None:
        """Changes from `commit` to the working tree; None when git cannot tell."""
        if commit not in self._changes:
            self.prefetch([commit])
        return self._changes[commit]

    def prefetch(self, commits: Iterable[str]) -> None:
        """Ask git about many anchor commits at once: four git processes in all.

        Committed changes come from one `diff-tree --stdin` (tree to tree, no
        working-tree scan per commit); the working tree is diffed against HEAD
        once; the two are composed per commit. One walk of history finds which
        commits HEAD contains (their merge base is themselves).
        """
        todo = sorted({c for c in commits if c not in self._changes})
        if not todo:
            return
        for commit in todo:
            self._changes[commit] = None
        head = self.head
        if self.git is None or head is None:
            return
        try:
            known = sorted(self.git.known_commits(todo))
            trees = self.git.tree_changes(known, head)
            worktree = self.worktree
        except GitError:
            return
        self._bases.update({c: c for c in self.git.ancestors_of(known, head)})
        for commit, committed in trees.items():
            self._changes[commit] = compose(committed, worktree)

    @cached_property
    def worktree(self) -> dict[str, Change]:
        """What the working tree changed since HEAD (empty outside git)."""
        if self.git is None or self.head is None:
            return {}
        return self.git.worktree_changes()

    def merge_base(self, commit: str) -> str | None:
        """The merge base of `commit` and HEAD (None when unrelated or unknown)."""
        if commit not in self._bases:
            head = self.head
            self._bases[commit] = self.git.merge_base(commit, head) if self.git and head else None
        return self._bases[commit]

    def path_problem(self, path: str) -> str | None:
        """Why a stored path must not be read, or None when it is a plain repo-relative
        POSIX path (no `..`, `.`, empty or absolute parts) that stays inside the root
        with symlinks resolved. Asked once per path per run; a directory is resolved
        once for all the paths in it (only a file that is a symlink is resolved whole)."""
        if path not in self._problems:
            self._problems[path] = self._path_problem(path)
        return self._problems[path]

    def _path_problem(self, path: str) -> str | None:
        if (
            not path
            or "\0" in path
            or PurePosixPath(path).is_absolute()
            or any(part in ("", ".", "..") for part in path.split("/"))
        ):
            return f"invalid path {path!r}: not a plain path inside the root"
        parent = path.rpartition("/")[0] or "."
        if self._leaves_root(parent) or (
            (self.root / path).is_symlink() and self._leaves_root(path)
        ):
            return f"invalid path {path!r}: it leads outside the root"
        return None

    def _leaves_root(self, path: str) -> bool:
        """True when `path`, symlinks resolved, is outside the root (cached per run)."""
        if path not in self._outside:
            try:
                resolve_in_root(self.root, path, must_exist=False)
                self._outside[path] = False
            except OutsideRootError:
                self._outside[path] = True
        return self._outside[path]

    def read(self, path: str) -> FileNow | None:
        """The file's content now; None when there is no such file.

        Raises DiskError when it exists but is not readable source text.
        """
        if path not in self._files:
            self._files[path] = self._read(path)
        return self._files[path]

    def _read(self, path: str) -> FileNow | None:
        try:
            absolute = resolve_in_root(self.root, path)
            data = read_source_bytes(absolute)
        except MissingFileError:
            return None
        text = decode_source(data, path=path)
        return FileNow(path, data, text, content_hash(data))

    def readable(self, path: str) -> FileNow | None:
        """Like `read`, but an unreadable file counts as absent."""
        try:
            return self.read(path)
        except DiskError:
            return None

    def outline(self, file: FileNow) -> Outline | None:
        """The file's symbols (the map's extraction when it has this content, else
        outlined once per content), or None for unknown languages."""
        key = (file.path, file.hash)
        if key not in self._outlines:
            known = self._known(file.path) if self._known is not None else None
            if known is not None and known.content_hash == file.hash:
                self._outlines[key] = Outline.of(known)
            elif language_for(file.path):
                self._outlines[key] = outline_file(file.path, file.data)
            else:
                self._outlines[key] = None
        return self._outlines[key]

    def file_fingerprint(self, file: FileNow) -> str:
        """The whole file's normalized fingerprint."""
        return self.range_fingerprint(file, 1, len(file.lines))

    def range_fingerprint(self, file: FileNow, start: int, end: int) -> str:
        """The normalized fingerprint of lines `start`..`end` (1-based, inclusive).

        The file's comments come from its outline (parsed once per content for
        its symbols too); it is tokenized once (cached, cut at every line;
        tokens never span lines), so any number of ranges in one file cost
        one parse.
        """
        language = language_for(file.path)
        if language is None:
            return fingerprint_text(file.span(start, end), None).normalized
        key = (file.path, file.hash)
        if key not in self._tokens:
            source = file.text.encode()
            offsets = [0]
            for line in file.lines:
                offsets.append(offsets[-1] + len(line.encode()))
            outline = self.outline(file)
            comments = outline.comments if outline and outline.language == language else None
            if comments is None:  # the map's outline, or a C++ header parsed as C++
                comments = tuple(comment_spans(language, source))
            self._tokens[key] = (offsets, TokenIndex(source, comments, offsets))
        offsets, index = self._tokens[key]
        return index.normalized(offsets[start - 1], offsets[end])

    def mentions(self, file: FileNow, word: str) -> bool:
        """True when `word` occurs in the file (as a whole word when it is one): a cheap test."""
        if not _WORD.fullmatch(word):
            return word in file.text
        return word in self._words_of(file)

    def mentions_all(self, file: FileNow, words: frozenset[str]) -> bool:
        """True when every one of `words` occurs in the file as a whole word."""
        return words <= self._words_of(file)

    def squeezed(self, file: FileNow) -> str:
        """The file's text with all whitespace removed (made once per content): runs of
        tokens are found in it however they are laid out."""
        key = (file.path, file.hash)
        if key not in self._squeezed:
            self._squeezed[key] = "".join(file.text.split())
        return self._squeezed[key]

    def _words_of(self, file: FileNow) -> frozenset[str]:
        key = (file.path, file.hash)
        if key not in self._words:
            self._words[key] = frozenset(_WORD.findall(file.text))
        return self._words[key]

    def line_index(self, file: FileNow, *, loose: bool) -> LineIndex:
        """The file's lines keyed for block search (built once per content and mode)."""
        key = (file.path, file.hash, loose)
        if key not in self._line_indexes:
            self._line_indexes[key] = LineIndex(file.lines, loose=loose)
        return self._line_indexes[key]

    def index(self, file: FileNow) -> SymbolIndex:
        """The file's symbols indexed for searching (built once per content)."""
        key = (file.path, file.hash)
        if key not in self._indexes:
            outline = self.outline(file)
            self._indexes[key] = SymbolIndex.of(file, outline.symbols if outline else ())
        return self._indexes[key]

    def candidates(self, commit: str | None) -> list[str]:
        """Files that may hold content moved away since `commit`.

        With git and a known commit: what changed or appeared since then.
        Otherwise every file under the root.
        """
        changes = self.changes(commit) if commit else None
        if changes is None or self.git is None:
            return self.all_files
        paths = {
            change.new_path if change.kind == "renamed" and change.new_path else path
            for path, change in changes.items()
            if change.kind != "deleted"
        }
        return sorted(p for p in paths | self.untracked if not p.startswith(OWN_DIR))

    @cached_property
    def untracked(self) -> frozenset[str]:
        """Untracked, not ignored files (empty outside git)."""
        return frozenset(self.git.untracked()) if self.git else frozenset()

    @cached_property
    def all_files(self) -> list[str]:
        """Every file under the root, as the map lists them."""
        return list(list_files(self.root, accept=lambda _path: True).files)

    def candidate_files(self, commit: str | None) -> list[FileNow]:
        """The readable `candidates(commit)`, read once per run."""
        if commit not in self._candidates:
            files = (self.readable(path) for path in self.candidates(commit))
            self._candidates[commit] = [f for f in files if f is not None]
        return self._candidates[commit]

    def find_by_hash(self, file_hash: str, commit: str | None) -> list[str]:
        """Candidate files whose whole content hashes to `file_hash`."""
        return [f.path for f in self.candidate_files(commit) if f.hash == file_hash]
