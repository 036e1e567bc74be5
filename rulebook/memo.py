"""A bounded memo for what depends only on its inputs (a round's explanation).

Least recently used entries go first once `size` are kept; a lock keeps it whole under a
server's threads. Values must never be changed by a caller: keep immutable ones (tuples,
named tuples) and build fresh containers from them.
"""
from __future__ import annotations

from _thread import allocate_lock  # threading's Lock, without importing threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class Memo(Generic[V]):
    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = allocate_lock()

    def get(self, key: Hashable, make: Callable[[], V]) -> V:
        """The value kept for `key`, else `make()` (outside the lock), kept."""
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
                return found
        value = make()
        with self._lock:
            self._kept[key] = value
            if len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return value

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()

    def __len__(self) -> int:
        return len(self._kept)
