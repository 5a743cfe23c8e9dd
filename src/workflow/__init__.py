"""What the graph's steps share but is no step: the dependencies a run hands them
(``dependencies.py``), the prompts and structured replies (``prompts.py``), fitting a prompt to
the model's context (``context_fit.py``) and the answer assembled from the verdicts
(``answer.py``). Runs in the main process; imports ``modules/`` and ``state/``, never a step.
"""
