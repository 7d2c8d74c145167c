"""Every file of a map store, as the linker takes it in: read once, in order, checked
against the stamps the map holds, and the link restored from them (the store-backed
map's link load, map.live.store_backed)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import partial

from map.linking.layout import Layout
from map.linking.packed import for_linking
from map.linking.references import References
from map.model import FileExtract
from map.progress import BuildProgress, for_phase
from map.store.link_store import StoredLinker
from map.store.mapstore import MapStore, Stamps, StoreError


def stored(
    store: MapStore, stamps: Stamps, own: Mapping[str, str] | None = None
) -> Iterator[tuple[str, FileExtract, bytes, References, bytes]]:
    """Every file of `store` (path, extract, packed, its references as columns, what
    linking decided for it: map.linking.link_rows), one at a time, checked against `stamps`
    (the files the map holds): raises StoreError when they disagree, or as
    `MapStore.linked_rows` does. The extract holds only the references that name a
    base class (see map.extraction.snapshot.decode_extract): it is for the linker's intake alone;
    its symbols share the node IDs `own` holds (a loaded graph's)."""
    count = 0
    for (extract, references), blob, links in store.linked_rows(partial(for_linking, own=own)):
        held = stamps.get(extract.path)
        if held is None or held[1] != extract.content_hash:
            raise StoreError(f"{store.path}: files and stamps disagree (e.g. {extract.path!r})")
        count += 1
        yield extract.path, extract, blob, references, links
    if count != len(stamps):
        raise StoreError(f"{store.path}: files and stamps disagree ({count} != {len(stamps)})")


def restore_stored(
    linker: StoredLinker,
    store: MapStore,
    stamps: Stamps,
    layout: Layout,
    progress: BuildProgress | None,
    pause: Callable[[], None],
) -> None:
    """Take the link as `store` holds it (checked against `stamps`) into `linker`, whose
    graph is loaded; `progress` hears the files linked, `pause` lets answers go first."""
    linking = for_phase(progress, "linking")
    own = {node: node for node in linker.graph}  # the extracts' IDs share the graph's
    linker.restore_link(stored(store, stamps, own), layout, linking, len(stamps), pause)
