"""`benchmarks/run.py --quick --json` runs end to end (about 30 s here) and reports every
figure docs/benchmarks.md shows. No timing is asserted: speed lives in benchmarks/."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.timeout(120)
def test_quick_benchmark_suite_produces_every_figure(tmp_path):
    out = tmp_path / "results.json"
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "run.py"), "--quick", "--json", "--out", str(out)],
                            capture_output=True, text=True, timeout=110, cwd=ROOT)
    assert result.returncode == 0, result.stderr[-2000:]
    printed = json.loads(result.stdout)
    assert printed == json.loads(out.read_text("utf-8"))
    e2e = printed["end_to_end"]
    assert e2e["exit_codes"] == [0] and e2e["llm_calls_per_report"] >= 1
    assert {"search", "processing", "llm", "verification", "report"} <= set(e2e["nodes_s_median"])
    assert 0 <= e2e["orchestration_share"] <= 1 and e2e["peak_rss_mib_max"] > 0
    assert "llm" in e2e["by_node"] and e2e["tokens_per_report"]["prompt"] > 0
    for name in ("fetch", "parser", "pdf", "startup", "verifier"):
        assert "error" not in printed[name], printed[name]
    assert printed["machine"]["cores"] >= 1
