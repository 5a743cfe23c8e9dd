"""Resource limits of the parser's processes: the server (a backstop), and each child that
parses one document. Standard library only: the server applies its own before it forks the
fork server, which then holds them too.
"""

from __future__ import annotations

import math
import os
import resource
from dataclasses import dataclass

MB = 1024 * 1024
DEFAULT_SERVER_MEMORY_MB = 4096


@dataclass(frozen=True)
class ChildLimits:
    memory_mb: int  # RLIMIT_AS of the child
    cpu_seconds: float  # RLIMIT_CPU of the child (the server also enforces wall time)


def env_number(name: str, default: float) -> float:
    """A positive finite number from the environment, else ``default``."""
    try:
        value = float(os.environ.get(name, ""))
    except ValueError:
        return default
    return value if value > 0 and math.isfinite(value) else default


def apply_server_limits() -> None:
    """A backstop cap on the server's own address space (RESEARCH_PARSER_SERVER_MEMORY_MB).
    The CPU-time limit is per document (in the child): a long-lived server legitimately
    accumulates CPU time."""
    limit = int(env_number("RESEARCH_PARSER_SERVER_MEMORY_MB", DEFAULT_SERVER_MEMORY_MB)) * MB
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    if soft == resource.RLIM_INFINITY or soft > limit:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def apply_child_limits(limits: ChildLimits) -> None:
    """Cap what this process may take; lowering limits never needs privileges."""
    _lower(resource.RLIMIT_AS, limits.memory_mb * MB)
    cpu = max(1, math.ceil(limits.cpu_seconds))
    # Soft limit sends SIGXCPU (which we leave fatal); the hard limit is SIGKILL.
    _lower(resource.RLIMIT_CPU, cpu, hard=cpu + 2)
    # Parsing writes no files; a runaway writer would otherwise fill the sandbox's tmpfs.
    _lower(resource.RLIMIT_FSIZE, 16 * MB)
    # A crash must not leave a core file of a hostile document behind.
    _lower(resource.RLIMIT_CORE, 0)


def _lower(kind: int, soft: int, hard: int | None = None) -> None:
    current_soft, current_hard = resource.getrlimit(kind)
    hard = soft if hard is None else hard
    if current_hard != resource.RLIM_INFINITY:
        hard = min(hard, current_hard)
        soft = min(soft, hard)
    resource.setrlimit(kind, (soft, hard))
