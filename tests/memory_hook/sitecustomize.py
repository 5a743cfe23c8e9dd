"""Loaded by every Python process started with this folder on PYTHONPATH (tests/test_memory_imports.py).

Records, in ``memory.jsonl`` beside the copy the test makes, each process that ran the hook
(``start``, with its argv), each one forked from such a process without exec (``fork``, with
its parent) and each heavy library it began to import (``import``, with the file whose code
asked for it). A process in a sandbox whose file system cannot reach the
log records nothing, silently.
"""

import json
import os
import sys

_LOG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "memory.jsonl")
_WATCHED = ("matplotlib", "numpy", "pandas", "scipy")


def _record(kind, **data):
    try:  # sys.argv is not set yet while site runs (`-m` modules): ask the kernel
        with open("/proc/self/cmdline", "rb") as handle:
            argv = handle.read().decode(errors="replace").split("\0")[:6]
    except OSError:
        argv = sys.argv[:6]
    try:
        with open(_LOG, "a", encoding="utf-8") as handle:
            handle.write(json.dumps({"kind": kind, "pid": os.getpid(), "argv": argv, **data}) + "\n")
    except OSError:
        pass


def _importer():
    """The file whose code asked for the import (the nearest frame outside importlib)."""
    frame = sys._getframe(2)
    while frame is not None and ("importlib" in frame.f_code.co_filename or "<frozen" in frame.f_code.co_filename):
        frame = frame.f_back
    return frame.f_code.co_filename if frame is not None else None


class _Watch:
    def find_spec(self, name, path=None, target=None):
        """Records the import and finds nothing: the other finders load the module."""
        if name in _WATCHED:
            _record("import", module=name, importer=_importer())


sys.meta_path.insert(0, _Watch())
_record("start")
# A process forked without exec (a one-shot run's standby web-search server) runs no site
# again: its imports are recorded under its own pid, and this row says whose child it is.
os.register_at_fork(after_in_child=lambda: _record("fork", parent=os.getppid()))
