"""The REPL driven through prompt-toolkit's pipe input, in process, against the fake
Ollama and the local web: real runs, real sessions, real Ctrl-C (SIGINT)."""

from __future__ import annotations

import json
import os
import re
import signal
import threading
import time
from pathlib import Path

import pytest
from conftest import FORKED_SERVERS, session_dirs
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from research.cli.repl import Repl, history_file, run_repl
from research.cli.repl_commands import SlashCompleter, closest_command
from research.modules.core.settings import load_settings


@pytest.fixture
def env(research_env, monkeypatch):
    """Apply the isolated environment in process (HOME, sessions folder, fake services)."""
    for key in [k for k in os.environ if k.startswith(("RESEARCH_", "OLLAMA_"))]:
        monkeypatch.delenv(key)
    for key, value in research_env.items():
        monkeypatch.setenv(key, value)
    # The REPL keeps starting servers in this worker, question after question and test after
    # test: its web-search servers are forked by the worker's zygote (conftest.FORKED_SERVERS).
    for key, value in FORKED_SERVERS.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    return research_env


def without_fake_server_reports(stderr: str) -> str:
    """Drop what the in-process fake Ollama's socketserver prints when a cancelled client hangs up.

    That report comes from the test fixture's server thread (a real Ollama is another process);
    everything else on stderr is the REPL's own and must stay free of tracebacks.
    """
    return re.sub(r"-{40}\nException occurred during processing of request.*?\n-{40}\n", "", stderr, flags=re.DOTALL)


def drive(keys: str, **settings_flags) -> int:
    """Run the REPL on ``keys`` (as typed; "\\r" is Enter) and return its exit code."""
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        return run_repl(load_settings(**settings_flags), input=pipe, output=DummyOutput())


def test_japanese_then_english_questions_make_two_sessions(env, capsys):
    keys = ("LangGraphのチェックポイントとは？\r/lang en\rWhat are LangGraph checkpoints?\r/sessions\r"
            "/sources\r/show\r/open ffff_ffff\r/resume\r/new\r/show\r/quit\r")
    assert drive(keys) == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err

    sessions = session_dirs(env)
    assert len(sessions) == 2
    metas = sorted((json.loads((s / "meta.json").read_text("utf-8")) for s in sessions),
                   key=lambda m: m["session_id"])
    assert [m["language"] for m in metas] == ["ja", "en"]
    assert all(m["status"] == "done" for m in metas)
    for folder in sessions:
        assert (folder / "report.md").is_file() and (folder / "report.pdf").is_file()
        assert str(folder / "report.pdf") in out  # the paths are shown after each run
    # Same conversation: the English question is a follow-up of the Japanese one.
    assert metas[1]["parent_session"] == metas[0]["session_id"]
    assert "結論" in (sessions[0] / "report.md").read_text("utf-8")
    # Messages followed the Japanese question, then switched with /lang en; /sessions listed both.
    assert "レポート（PDF）" in out
    assert "Language: en" in out
    for meta in metas:
        assert meta["session_id"] in out

    # Session commands on the current (English) session.
    ledger = [json.loads(line) for line in (sessions[1] / "processed.jsonl").read_text("utf-8").splitlines()]
    assert ledger and ledger[0]["url"] in out  # /sources lists the ledger
    assert "Summary" in out  # /show rendered the English report
    assert "No session with id 'ffff_ffff'" in out
    assert "Usage: /resume ID" in out
    # /new forgot the conversation: no current session, so the next question would have no parent.
    assert "No session yet" in out.split("New conversation")[1]


def test_ctrl_c_during_a_run_cancels_it_and_the_repl_goes_on(env, fake_ollama, capsys):
    sessions_root = Path(env["RESEARCH_SESSIONS_DIR"])

    def press_ctrl_c_then_resume(pipe) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            for events in sessions_root.glob("session_*/events.jsonl"):
                log = events.read_text("utf-8")
                # From the search step on (no model call until the answer), so that a loaded machine's
                # poller cannot miss the window and find the answer already streamed at full speed.
                if '"event": "node_start", "node": "search"' in log:
                    fake_ollama.token_delay = 0.5  # the answer will stream slowly: time for Ctrl-C
                if '"event": "node_start", "node": "llm"' in log:
                    time.sleep(0.5)
                    os.kill(os.getpid(), signal.SIGINT)  # what Ctrl-C on a terminal sends
                    fake_ollama.token_delay = 0.0
                    session_id = events.parent.name.removeprefix("session_")
                    # Typed after the cancel: the REPL must still take commands, and resume the session.
                    pipe.send_text(f"/lang ja\r/sessions\r/resume {session_id}\r/quit\r")
                    return
            time.sleep(0.05)

    with create_pipe_input() as pipe:
        pipe.send_text("What is the height of Mount Fuji?\r")
        presser = threading.Thread(target=press_ctrl_c_then_resume, args=(pipe,), daemon=True)
        presser.start()
        assert run_repl(load_settings(), input=pipe, output=DummyOutput()) == 0
        presser.join(timeout=5)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + without_fake_server_reports(err)

    (session,) = session_dirs(env)
    session_id = session.name.removeprefix("session_")
    events = [json.loads(line)["event"] for line in (session / "events.jsonl").read_text("utf-8").splitlines()]
    assert "run_cancelled" in events  # the runner recorded the cancel before the resume
    assert f"/resume {session_id}" in out
    # The REPL went on after the cancel: /lang and /sessions answered, with the session cancelled.
    after_cancel = out.split("言語を ja にしました")[1]
    assert session_id in after_cancel and "cancelled" in after_cancel
    # /resume finished the same session, keeping what it had.
    meta = json.loads((session / "meta.json").read_text("utf-8"))
    assert meta["status"] == "done"
    assert (session / "report.pdf").is_file()
    assert str(session / "report.pdf") in after_cancel


def test_ctrl_c_at_the_prompt_clears_the_line(env, capsys):
    # "/quit" typed then Ctrl-C: the line is dropped, so the REPL is still there for /help.
    assert drive("/quit\x03/help\r\x04") == 0
    out = capsys.readouterr().out
    assert "/sessions" in out and "Bye." in out


def test_unknown_command_suggests_the_closest(env, capsys):
    assert drive("/sesions\r/lnag ja\r/zzzzzz\r/lang en\r/quit\r") == 0
    out = capsys.readouterr().out
    assert "Unknown command /sesions. Did you mean /sessions?" in out
    assert "不明なコマンド /lnag です。/lang のことですか？" not in out  # still English until /lang ja runs
    assert "Unknown command /zzzzzz. Type /help for the list." in out
    assert closest_command("resme") == "resume"
    assert closest_command("exi") == "quit"


def test_lang_switching_messages(env, capsys):
    assert drive("/lang ja\r/lang xx\r/lang auto\r/lang en\r/lang\r/quit\r") == 0
    out = capsys.readouterr().out
    assert "言語を ja にしました" in out
    assert "使い方: /lang ja|en|auto" in out
    assert "言語: 自動" in out
    assert "Language: en" in out
    assert "Usage: /lang ja|en|auto" in out


def test_help_in_both_languages(env, capsys):
    assert drive("/help\r/lang ja\r/help\r/quit\r") == 0
    out = capsys.readouterr().out
    english, japanese = out.split("言語を ja にしました")
    for command in ("/help", "/lang", "/model", "/models", "/new", "/sessions", "/open", "/show", "/resume",
                    "/sources", "/verbose", "/quit"):
        assert command in english and command in japanese
    assert "past sessions" in english and "過去のセッション一覧" in japanese
    assert "past sessions" not in japanese


def test_model_commands_check_ollama(env, capsys):
    assert drive("/models\r/model no-such-model\r/model gpt-oss:20b\r/model\r/quit\r") == 0
    out = capsys.readouterr().out
    assert "gpt-oss:20b" in out
    assert "Model no-such-model is not installed" in out and "ollama pull no-such-model" in out
    assert "Model: gpt-oss:20b" in out
    assert "Usage: /model NAME" in out


def test_history_is_kept_in_a_file_across_runs(env):
    assert drive("/lang en\r/quit\r") == 0
    path = history_file()
    assert path == Path(env["HOME"]) / ".local" / "share" / "research" / "history"
    assert "/lang en" in path.read_text("utf-8")
    repl = Repl(load_settings(), output=DummyOutput())
    assert "/lang en" in list(repl.prompt_session().history.load_history_strings())


def test_completion_of_commands_and_arguments(env):
    repl = Repl(load_settings())
    completer = SlashCompleter(repl)

    def complete(text: str) -> list[str]:
        return [c.text for c in completer.get_completions(Document(text), CompleteEvent())]

    assert complete("/se") == ["/sessions"]
    assert "/model" in complete("/mo") and "/models" in complete("/mo")
    assert complete("/lang ") == ["ja", "en", "auto"]
    assert complete("/lang j") == ["ja"]
    assert complete("/model ") == ["gpt-oss:20b"]  # from the (fake) Ollama's list
    assert complete("富士山") == []
    Path(env["RESEARCH_SESSIONS_DIR"], "session_20250101_120000_abcdef").mkdir(parents=True)
    Path(env["RESEARCH_SESSIONS_DIR"], "session_20250101_120000_abcdef", "meta.json").write_text(
        json.dumps({"session_id": "20250101_120000_abcdef", "question": "富士山の高さは？"}), "utf-8")
    assert complete("/open ") == ["20250101_120000_abcdef"]
    assert complete("/resume abc") == ["20250101_120000_abcdef"]


def test_toolbar_shows_language_model_and_session(env):
    repl = Repl(load_settings(language="ja"))
    assert "ja" in repl.toolbar() and "gpt-oss:20b" in repl.toolbar() and "（新規）" in repl.toolbar()
    repl.session_id = "20250101_120000_abcdef"
    assert "20250101_120000_abcdef" in repl.toolbar()


def test_open_prints_the_path_when_there_is_no_viewer(env, monkeypatch, tmp_path, capsys):
    from research.state.session_folder import HistoryManager

    history = HistoryManager(Path(env["RESEARCH_SESSIONS_DIR"]))
    session = history.create(question="What is the height of Mount Fuji?", language="en", model="gpt-oss:20b")
    history.write_bytes(session.session_id, "report.pdf", b"%PDF-1.4\n%%EOF\n")
    empty_bin = tmp_path / "bin"
    empty_bin.mkdir()
    monkeypatch.setenv("PATH", str(empty_bin))  # no xdg-open, gio or wslview: no viewer at all
    assert drive(f"/open {session.session_id}\r/open\r/quit\r") == 0
    out = capsys.readouterr().out
    assert f"the report is at {session.path / 'report.pdf'}" in out
    assert "No session yet" in out  # /open without an id and without a conversation


class Terminal:
    """`research` on a pseudo-terminal, as a user runs it: Ctrl-C is the terminal's SIGINT."""

    def __init__(self, env: dict[str, str]) -> None:
        import pty

        from conftest import RESEARCH

        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the pty is its controlling terminal
            os.execve(RESEARCH, [RESEARCH], {**env, "TERM": "xterm-256color", "LANG": "en_US.UTF-8"})
        self.screen = b""

    def read_until(self, marker: str, timeout: float = 60) -> str:
        import select

        deadline = time.monotonic() + timeout
        while marker.encode() not in self.screen:
            if time.monotonic() > deadline:
                raise AssertionError(f"{marker!r} not shown; screen ends with {self.screen[-800:]!r}")
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    break
                if b"\x1b[6n" in chunk:  # answer cursor-position requests like a terminal does
                    os.write(self.fd, b"\x1b[1;1R")
                self.screen += chunk
        return self.screen.decode("utf-8", "replace")

    def type(self, text: str) -> None:
        os.write(self.fd, text.encode())

    def wait(self, timeout: float = 30) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                self.read_until("\x00never", timeout=0.2)
            except AssertionError:
                pass
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
        os.kill(self.pid, signal.SIGKILL)
        raise AssertionError("research did not exit")


def test_ctrl_c_on_a_real_terminal_cancels_the_run_only(research_env, fake_ollama):
    terminal = Terminal(research_env)
    terminal.read_until("research>")
    terminal.type("What is the height of Mount Fuji?\r")
    terminal.read_until("Reading sources")
    fake_ollama.token_delay = 0.5  # from now on the answer streams slowly: time to press Ctrl-C
    terminal.read_until("Writing the answer")
    deadline = time.monotonic() + 60  # Ctrl-C once the answer streams: the run is drafting
    while not any(r.get("stream") for r in fake_ollama.chat_requests()) and time.monotonic() < deadline:
        time.sleep(0.05)
    terminal.type("\x03")
    screen = terminal.read_until("/resume ")
    terminal.read_until("research>", timeout=10)  # a fresh prompt: the REPL is still there
    terminal.type("/quit\r")
    assert terminal.wait() == 0
    screen = terminal.screen.decode("utf-8", "replace")
    assert "Traceback" not in screen and "KeyboardInterrupt" not in screen
    assert "Cancelled." in screen
    (session,) = session_dirs(research_env)
    assert json.loads((session / "meta.json").read_text("utf-8"))["status"] == "cancelled"


def test_ollama_down_is_one_message_and_the_repl_goes_on(env, monkeypatch, capsys):
    import socket

    with socket.socket() as unused:  # a port nobody listens on
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    monkeypatch.setenv("RESEARCH_OLLAMA_HOST", f"http://127.0.0.1:{port}")
    assert drive("What is the height of Mount Fuji?\r/models\r/model gpt-oss:20b\r/lang ja\r/quit\r") == 0
    out = capsys.readouterr().out
    assert out.count(f"Ollama is not reachable at http://127.0.0.1:{port}") == 3
    assert "言語を ja にしました" in out
    assert "Traceback" not in out
    assert session_dirs(env) == []  # nothing is made before Ollama answers


def test_a_japanese_question_with_no_ollama_is_answered_in_japanese(env, monkeypatch, capsys):
    import socket

    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    monkeypatch.setenv("RESEARCH_OLLAMA_HOST", f"http://127.0.0.1:{port}")
    assert drive("富士山の高さは？\r/quit\r") == 0
    out = capsys.readouterr().out
    assert "Ollamaに接続できません" in re.sub(r"\s", "", out) or "接続できません" in out
    assert "Ollama is not reachable" not in out


def test_bare_exit_clear_and_help_are_commands_not_questions(env, capsys):
    # `clear`, `help` and `exit` typed alone do what they do in a shell: no run, no session.
    assert drive("clear\rhelp\rexit\r") == 0
    out = capsys.readouterr().out
    assert "/sessions" in out and "/clear" in out  # the help table was shown
    assert "Bye" in out
    assert session_dirs(env) == []
    assert drive("QUIT\r") == 0
    assert session_dirs(env) == []


def test_depth_without_an_argument_changes_nothing(env, capsys):
    assert drive("/lang ja\r/depth deep\r/depth\r/lang en\r/depth\r/depth bogus\r/quit\r") == 0
    out = capsys.readouterr().out
    japanese, english = out.split("Language: en")
    # Only /depth deep set anything; /depth alone tells the depth without a usage error.
    assert japanese.count("調査の深さを deep にしました") == 1 and "使い方" not in japanese
    assert "調査の深さ: deep" in japanese
    assert english.count("Depth: deep") == 2 and english.count("Usage: /depth") == 1


def test_a_follow_up_keeps_the_conversations_topic(env, fake_ollama, capsys):
    # Like a real model (paraphrases, citation styles, harmony leaks, wrong figures that the
    # verifier sends back for revision): a Japanese question, then "When did it last erupt?".
    from fixtures.fake_ollama import REALISTIC

    fake_ollama.behaviours = set(REALISTIC)
    assert drive("富士山の標高は？\rWhen did it last erupt?\r/quit\r") == 0
    out, err = capsys.readouterr()
    first, follow_up = session_dirs(env)
    planned = re.findall(r"^    - `(.+)` \((?:ja|en)\)$", (follow_up / "input.md").read_text("utf-8"), flags=re.MULTILINE)
    assert planned and all("富士山" in query for query in planned), planned
    report = (follow_up / "report.md").read_text("utf-8")
    body = report.split("\n## Verification")[0]
    # The answer is about Mount Fuji, not about pages an unrelated query found.
    assert "Fuji" in body
    assert "LangGraph" not in body and "tortoise" not in body.lower(), body
    # Each report path is printed once, on its own labelled line.
    for folder in (first, follow_up):
        assert out.count(str(folder / "report.pdf")) == 1 and out.count(str(folder / "report.md")) == 1, out
    # The revision step's scaffolding never reaches a report or the terminal.
    for text in (out, (first / "report.md").read_text("utf-8"), report):
        for scaffolding in ("Sentences to revise", "書き直す文", "Sentence 1:", "文 1:"):
            assert scaffolding not in text


def test_plan_without_an_argument_tells_the_setting_and_changes_nothing(env, capsys):
    # Before, `/plan` alone printed its usage and then "計画の確認をオンにしました" as if it had switched.
    assert drive("/lang ja\r/plan\r/plan bogus\r/plan on\r/plan\r/quit\r") == 0
    out = capsys.readouterr().out
    assert out.count("計画の確認をオンにしました") == 1  # only /plan on
    assert out.count("計画の確認: オフ（/plan on|off で変更できます）") == 2  # /plan, /plan bogus
    assert out.count("計画の確認: オン（/plan on|off で変更できます）") == 1  # /plan after /plan on
    assert out.count("使い方: /plan on|off") == 1  # the wrong word only


def test_clear_erases_the_screen_where_the_prompt_draws(env, capsys):
    # `clear` went to rich's stdout behind prompt-toolkit's back, and the next question was
    # drawn twice; the prompt's own output erases now, as its Ctrl-L does.
    class Recording(DummyOutput):
        def __init__(self) -> None:
            self.calls: list[str] = []

        def erase_screen(self) -> None:
            self.calls.append("erase_screen")

        def cursor_goto(self, row: int = 0, column: int = 0) -> None:
            self.calls.append(f"goto {row},{column}")

    output = Recording()
    with create_pipe_input() as pipe:
        pipe.send_text("clear\r/clear\r/quit\r")
        assert run_repl(load_settings(), input=pipe, output=output) == 0
    assert output.calls == ["erase_screen", "goto 0,0"] * 2
    assert "\x1b[2J" not in capsys.readouterr().out


def test_after_an_answer_the_sources_list_is_shown(env, capsys):
    # The one-shot run shows the Sources list the answer's [S#] point at; the REPL did not.
    assert drive("What is the height of Mount Fuji?\r/quit\r") == 0
    out = capsys.readouterr().out
    (session,) = session_dirs(env)
    report = (session / "report.md").read_text("utf-8")
    sources = report[report.index("## Sources"):].split("\n## ", 1)[0].strip()
    first_url = next(line for line in sources.splitlines() if "http" in line)
    assert "## Sources" in out and first_url.strip() in out
    assert out.index("## Sources") < out.index("Report (PDF):")  # before the closing lines, as the one-shot


def test_attach_follows_a_run_of_the_team_server_and_needs_one(env, monkeypatch, capsys):
    """/attach [RUN] is `research attach` inside the REPL: without RESEARCH_SERVER it says what it
    needs (and the REPL goes on); with one, it follows the run it is given."""
    import research.team.client as remote_run

    assert drive("/attach 7\r/lang ja\r/quit\r") == 0
    out = capsys.readouterr()
    assert "research attach needs RESEARCH_SERVER" in out.out + out.err
    assert "言語を" in out.out + out.err  # the REPL went on to the next command (/lang ja)
    followed = []

    async def fake_attach(run_ref, settings, lang, *, as_json, output):
        followed.append((run_ref, as_json, output))
        return 0

    monkeypatch.setattr(remote_run, "attach", fake_attach)
    assert drive("/attach 12\r/attach\r/quit\r") == 0
    assert followed == [("12", False, None), (None, False, None)]


def test_cancel_needs_the_team_server_and_the_repl_goes_on(env, capsys):
    """/cancel [RUN] is `research cancel` inside the REPL (tests/test_team_client.py cancels runs)."""
    assert drive("/cancel 7\r/lang ja\r/cancel x\r/quit\r") == 0
    out = capsys.readouterr()
    said = out.out + out.err
    assert "research cancel needs RESEARCH_SERVER" in said
    assert "research cancel には RESEARCH_SERVER" in said  # after /lang ja: in Japanese


def test_a_follow_up_caught_in_a_run_of_empty_headings_is_stopped(env, fake_ollama, capsys):
    # Issue 48: in a REPL follow-up the real model streamed "## 1節 … ## 56節 …" for over four
    # minutes and only Ctrl-C ended it. Here both answers fall into it, through the real client,
    # slowly enough that reading one to its cap would take over 10 s.
    fake_ollama.behaviours = {"loop_headings"}
    fake_ollama.token_delay = 0.01
    started = time.monotonic()
    assert drive("富士山の標高は？\r最後の噴火はいつ？\r/quit\r") == 0
    assert time.monotonic() - started < 60
    out, err = capsys.readouterr()
    assert len(fake_ollama.streams_abandoned) == 2, fake_ollama.streams_abandoned
    assert all(sent < 1000 for sent in fake_ollama.streams_abandoned), fake_ollama.streams_abandoned
    first, follow_up = session_dirs(env)
    for folder in (first, follow_up):
        draft = (folder / "llm_draft.md").read_text("utf-8")
        assert "節 詳細" not in draft, draft
        assert "節 詳細" not in (folder / "report.md").read_text("utf-8")


def test_the_answer_is_read_once_after_a_preview_of_the_draft(env, capsys):
    # Issue 48: the streamed draft scrolled by and the checked answer was printed in full after
    # it. The draft now shows as progress under the running step; the checked answer once.
    assert drive("What is the height of Mount Fuji?\r/quit\r") == 0
    out, err = capsys.readouterr()
    (session,) = session_dirs(env)
    draft = (session / "llm_draft.md").read_text("utf-8")
    first_line = next(line for line in draft.splitlines() if line.strip() and not line.startswith("#"))
    assert out.count("## Summary") == 1, out
    assert out.count(first_line.strip()[:40]) <= 1, out
    assert "The checked answer" in out + err
