"""`-o PATH`: one writer (run_output.copy_outputs) for a local run and a team's."""

from __future__ import annotations


def test_output_to_a_folder_names_the_files_after_the_session_for_a_team_run_too(tmp_path):
    # remote_run.py writes -o with the same function, from the bytes the server sent.
    import io

    from rich.console import Console

    from research.cli.run_output import copy_outputs

    class Progress:
        lang = "en"
        console = Console(file=io.StringIO(), width=40)

    result = {"session_id": "20261125_101500_3fa9c1"}
    assert copy_outputs(result, str(tmp_path / "out"), Progress(), contents={"md": b"# r\n", "json": b"{}"}) == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["20261125_101500_3fa9c1.json",
                                                                   "20261125_101500_3fa9c1.md"]
    said = Progress.console.file.getvalue()
    assert said.count("Copied to ") == 2 and str(tmp_path / "out" / "20261125_101500_3fa9c1.md") + "\n" in said
