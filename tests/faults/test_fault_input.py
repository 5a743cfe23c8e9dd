"""Bad input: each is one line in the user's language and exit code 2, never a traceback.

Complements tests/test_e2e_cli.py (whitespace, a 100,000-character question, --lang fr,
RESEARCH_NUM_CTX=lots, ../../etc, an unknown id): the cases it does not cover."""

from __future__ import annotations

import pytest
from conftest import run_research

from research.modules.core.errors import UsageError
from research.orchestrator.runner import MAX_QUESTION_CHARS, clean_question

pytestmark = pytest.mark.faults


@pytest.mark.parametrize(
    "args,env,config,needle",
    [
        ([""], {}, None, "empty"),
        (["\x07\x1b\x7f\u200b\x0c"], {}, None, "empty"),  # only control and format characters
        (["　", "--lang", "ja"], {}, None, "質問が空です"),
        (["あ" * 40_000], {}, None, "40000"),  # 120 KB of UTF-8: near the kernel's limit for one argument
        (["What?", "--resume", "..%2F..%2Fetc"], {}, None, "not a valid session id"),
        (["What?", "--resume", "../../etc/passwd", "--lang", "ja"], {}, None, "有効なセッションID"),
        (["富士山は？", "--resume", "20990101_000000_abcdef"], {}, None, "セッション"),
        (["What?", "--lang", "JA"], {}, None, "Unknown language"),
        (["What?"], {"RESEARCH_SANDBOX": "vm"}, None, "RESEARCH_SANDBOX"),
        (["What?"], {"RESEARCH_MAX_VERIFICATION_LOOPS": "99"}, None, "RESEARCH_MAX_VERIFICATION_LOOPS"),
        (["What?", "--max-loops", "-1"], {}, None, "--max-loops"),  # the flag the user typed
        (["What?"], {"RESEARCH_NUM_CTX": "100"}, None, "RESEARCH_NUM_CTX"),
        (["What?"], {}, 'model = "qwen3\nnum_ctx = [', "config"),
        (["富士山は？"], {}, "num_ctx = 'many'", "RESEARCH_NUM_CTX"),
        (["What?"], {}, b"\xff\xfe\x00 not utf-8", "config"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(run_cli, research_env, tmp_path, args, env, config, needle):
    research_env.update(env)
    if config is not None:
        path = tmp_path / "config.toml"
        path.write_bytes(config if isinstance(config, bytes) else config.encode())
        research_env["RESEARCH_CONFIG"] = str(path)
    # In-process, except the argument near the kernel's size limit: that one must pass exec.
    run = run_research if len(args[0].encode()) > 100_000 else run_cli
    result = run(args, research_env, timeout=60)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("research: "), lines
    assert needle in lines[0], lines[0]


def test_japanese_question_gets_japanese_messages(run_cli, research_env):
    result = run_cli(["富士山は？", "--resume", "nope!"], research_env, timeout=60)
    assert result.returncode == 2
    assert any("\u3040" <= ch <= "\u30ff" for ch in result.stderr), result.stderr


def test_control_characters_inside_a_question_are_removed_not_fatal():
    assert clean_question("What\x00 is\x1b[31m Fuji\x07?\r\n") == "What is [31m Fuji ?"
    assert clean_question("富士山\u0000の高さ\tは？") == "富士山 の高さ は？"
    with pytest.raises(UsageError) as caught:
        clean_question("x" * (MAX_QUESTION_CHARS + 1))
    assert caught.value.exit_code == 2
