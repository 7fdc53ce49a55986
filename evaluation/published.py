"""Published numbers to print beside ours (from the papers; see ``shared/papers.md`` and the data README).

Keys are dotted paths into a runner's result object; each value is a list of ``(system, number)``.
"""

from __future__ import annotations

PUBLISHED: dict[str, dict[str, list[tuple[str, float]]]] = {
    "factcheck-bench": {
        "cross_validated.stance.accuracy": [
            ("RoBERTa-large-MNLI", 0.607),
            ("ChatGPT zero-shot", 0.567),
            ("always irrelevant", 0.26),
        ],
        "cross_validated.stance.macro_f1": [
            ("RoBERTa-large-MNLI", 0.512),
            ("ChatGPT zero-shot", 0.483),
            ("word-overlap rule", 0.42),
        ],
        "cross_validated.verification.false.f1": [
            ("GPT-4 + web search", 0.63),
            ("Perplexity.ai", 0.53),
            ("GPT-3.5 + Wikipedia", 0.41),
            ("always false", 0.42),
            ("perfect stance reading", 0.7),
        ],
        "stance.accuracy": [("RoBERTa-large-MNLI", 0.607), ("ChatGPT zero-shot", 0.567), ("always irrelevant", 0.26)],
        "stance.macro_f1": [("RoBERTa-large-MNLI", 0.512), ("ChatGPT zero-shot", 0.483), ("word-overlap rule", 0.42)],
        "verification.false.f1": [
            ("GPT-4 + web search", 0.63),
            ("Perplexity.ai", 0.53),
            ("GPT-3.5 + Wikipedia", 0.41),
            ("always false", 0.42),
            ("perfect stance reading", 0.7),
        ],
        "revision.edit_distance": [],
        "revision.word_overlap": [],
    },
    "wice": {
        "binary.f1": [("T5-3B fine-tuned, oracle chunks", 0.778), ("GPT-4, oracle chunks", 0.610)],
        "binary.accuracy": [("T5-3B fine-tuned, oracle chunks", 0.880), ("GPT-4, oracle chunks", 0.770)],
    },
    "ambigbio": {
        "kendall_tau": [("goal", 0.6)],
        "pearson_dfs": [("automatic vs human D-FS (paper)", 0.75)],
    },
    "factscore": {
        "decomposition.word_overlap": [("ChatGPT vs humans (Factcheck-Bench)", 0.88)],
    },
}
