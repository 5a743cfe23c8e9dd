"""The C library's heap in our long-lived processes (glibc only; elsewhere these do nothing).

* ``return_free_memory()``: hand the heap's free pages back to the system (``malloc_trim``).
  The parser's fork server does it after its warm-up, before the first child is forked: what
  the warm-up built and let go leaves about 4 MB of free heap between the blocks it keeps.
* ``limit_arenas(count)``: at most ``count`` malloc arenas (``mallopt(M_ARENA_MAX)``, what
  ``MALLOC_ARENA_MAX`` sets at a process's start). glibc gives each new thread that allocates
  an arena of its own, up to eight per core, each with its own free space, kept for the
  process's life. A one-shot run has several threads (its graph's import, about 10 MiB in its
  arena, the checkpointer's, the event loop's executor): with two arenas they share one beside
  the main heap, and the run's own process was about 1 MiB smaller at the tree's peak (issue 47,
  docs/benchmarks.md; one arena measured no smaller). The parser server gets
  ``MALLOC_ARENA_MAX=2`` in its environment.
"""

from __future__ import annotations

_M_ARENA_MAX = -8  # mallopt's parameter (malloc.h)


def _libc():
    import ctypes

    return ctypes.CDLL(None)


def return_free_memory() -> None:
    try:
        _libc().malloc_trim(0)
    except (OSError, AttributeError):  # not glibc
        pass


def limit_arenas(count: int) -> None:
    """Call it before the process starts threads: an arena made already stays."""
    try:
        _libc().mallopt(_M_ARENA_MAX, count)
    except (OSError, AttributeError):  # not glibc
        pass
