"""Loaded by every Python process started with this folder on PYTHONPATH (tests/test_boundary.py).

The test copies this file into a folder of its own; records go to ``boundary.jsonl``
beside the copy (PYTHONPATH reaches child processes that a test variable would not), with the process's network namespace
(/proc/self/ns/net):
- ``start``: this process ran the hook (so a process that recorded nothing was watched);
- ``fork``: this process was forked, without exec, from one that ran it (``parent``);
- ``import``: an extraction library began to load (trafilatura, pdfminer, markdownify,
  lxml.html, charset_normalizer);
- ``tool``: an MCP ``call_tool`` this process made (name and the ``url`` argument).
A process in a sandbox whose file system cannot reach the log records nothing, silently.
"""

import json
import os
import sys

_LOG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "boundary.jsonl")
_WATCHED = ("trafilatura", "pdfminer", "markdownify", "lxml.html", "charset_normalizer")


def _record(kind, **data):
    try:
        namespace = os.readlink("/proc/self/ns/net")
    except OSError:
        namespace = None
    try:  # sys.argv is not set yet while site runs (`-m` modules): ask the kernel
        with open("/proc/self/cmdline", "rb") as handle:
            argv = handle.read().decode(errors="replace").split("\0")[:6]
    except OSError:
        argv = sys.argv[:6]
    line = json.dumps({"kind": kind, "pid": os.getpid(), "ns": namespace, "argv": argv, **data})
    try:
        with open(_LOG, "a", encoding="utf-8") as handle:
            handle.write(line + "\n")
    except OSError:
        pass


def _wrap_call_tool(module):
    original = module.Client.call_tool

    async def call_tool(self, name, arguments=None, *args, **kwargs):
        _record("tool", name=name, url=(arguments or {}).get("url"))
        return await original(self, name, arguments, *args, **kwargs)

    module.Client.call_tool = call_tool


def _importer():
    """The file whose code asked for the import (the nearest frame outside importlib)."""
    frame = sys._getframe(2)
    while frame is not None and ("importlib" in frame.f_code.co_filename or "<frozen" in frame.f_code.co_filename):
        frame = frame.f_back
    return frame.f_code.co_filename if frame is not None else None


class _Watch:
    def find_spec(self, name, path=None, target=None):
        if name in _WATCHED:
            _record("import", module=name, importer=_importer())
        if name == "mcp.client.client":
            return self._patched(name, path, target)
        return None

    def _patched(self, name, path, target):
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None and spec.loader is not None:
                execute = spec.loader.exec_module

                def exec_module(module, _execute=execute):
                    _execute(module)
                    _wrap_call_tool(module)

                spec.loader.exec_module = exec_module
                return spec
        return None


_record("start")
sys.meta_path.insert(0, _Watch())
# A process forked without exec (a one-shot run's standby web-search server) runs no site
# again: its imports and calls are recorded under its own pid, and this row says whose child it is.
os.register_at_fork(after_in_child=lambda: _record("fork", parent=os.getppid()))
