"""`research bench`: whole research runs over a question set whose pages are fixed, graded.

- ``sets``: the sets (PubMedQA PQA-L, JSQuAD) read in their original formats, the sample,
  and the local corpus of all the set's pages that the runs search (``--engine local``);
- ``grading``: the final answer (and the first draft) against the gold answer;
- ``stats``: Wilson intervals and percentiles;
- ``results``: one JSONL line per question (what a resumed bench reads) and the summary;
- ``report``: the Markdown report, its chart and the PDF;
- ``runner``: one research run per question through ``run_research``, bounded and resumable.
"""
