"""The log of what a run did (``log.*``: ``--verbose``, ``RESEARCH_LOG_LEVEL``), in the language
of the run's messages: its steps, model calls and servers (``modules/core/logs.py``)."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # --- steps (orchestrator/steps.py) ---
    "log.step_started": {"en": "step {step} started (session {session_id})",
                         "ja": "ステップ {step} を開始しました（セッション {session_id}）"},
    "log.step_paused": {"en": "step {step} paused for the user", "ja": "ステップ {step} は利用者の確認を待っています"},
    "log.step_stopped": {"en": "step {step} stopped after {seconds} s: {error}",
                         "ja": "ステップ {step} は {seconds} 秒で止まりました: {error}"},
    "log.step_finished": {"en": "step {step} finished in {seconds} s{calls}",
                          "ja": "ステップ {step} が {seconds} 秒で終わりました{calls}"},
    "log.step_calls": {"en": ", {node}: {calls} model calls, {prompt}+{completion} tokens",
                       "ja": "、{node}: モデル呼び出し {calls} 回、{prompt}+{completion} トークン"},
    # --- the model (modules/llm/model_manager.py) ---
    "log.model_streamed": {
        "en": "model {model} streamed {role} for {node} in {seconds} s ({tokens} prompt tokens, stop: {stop})",
        "ja": "モデル {model} が {node} の {role} を {seconds} 秒で返しました（プロンプト {tokens} トークン、停止: {stop}）",
    },
    "log.model_answered": {
        "en": "model {model} answered {role} for {node}: {prompt}+{completion} tokens in {seconds} s (stop: {stop})",
        "ja": "モデル {model} が {node} の {role} に答えました: {prompt}+{completion} トークン、{seconds} 秒（停止: {stop}）",
    },
    "log.reply_did_not_fit": {"en": "model reply for {node} did not fit {schema}; asked once more",
                              "ja": "{node} へのモデルの返答が {schema} に合いませんでした。もう一度尋ねます"},
    "log.no_usable_reply": {"en": "no usable model reply for {node}: the step goes on without it",
                            "ja": "{node} に使えるモデルの返答がありません。このステップはそれなしで続けます"},
    "log.model_fallback": {"en": "model calls failed {count} times in a row; {fallback} takes over from {model}",
                           "ja": "モデルの呼び出しが {count} 回続けて失敗しました。{model} に代わって {fallback} を使います"},
    "log.model_failed": {"en": "model {model} failed for {node}: {reason}",
                         "ja": "モデル {model} が {node} で失敗しました: {reason}"},
    # --- the MCP servers (modules/clients/) ---
    "log.server_restarting": {"en": "the {name} server stopped answering; starting it again (restart {count})",
                              "ja": "{name} サーバーが応答しなくなりました。起動し直します（{count} 回目）"},
    "log.server_up": {"en": "the {name} server is up after {seconds} s", "ja": "{name} サーバーが {seconds} 秒で起動しました"},
    "log.sandbox_unproven": {"en": "parser sandbox {sandbox} did not prove network isolation: {report}",
                             "ja": "パーサーのサンドボックス {sandbox} はネットワークの遮断を確かめられませんでした: {report}"},
    # --- the session folder (state/progress_log.py) ---
    "log.write_failed": {"en": "could not write {path}: {reason}", "ja": "{path} を書けませんでした: {reason}"},
}
