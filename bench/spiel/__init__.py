"""Our rules as OpenSpiel games, so OpenSpiel's search plays them (``bench_ismcts.py``)."""
