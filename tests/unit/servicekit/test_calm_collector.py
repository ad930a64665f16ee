"""A service's own process freezes what start-up made and spaces the full collections."""

from __future__ import annotations

import gc

from tavolo.servicekit.runtime import FULL_COLLECTION_EVERY, calm_collector


def test_start_up_objects_are_frozen_and_full_collections_spaced() -> None:
    before = gc.get_threshold()
    try:
        calm_collector()
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (before[0], before[1], FULL_COLLECTION_EVERY)
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
