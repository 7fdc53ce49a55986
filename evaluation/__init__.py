"""Evaluation of factsentry against the papers' labelled data (``factsentry eval``).

``evaluation.metrics`` holds the metric functions, registered by name; ``evaluation.datasets``
reads the dev files of ``shared/data``; ``evaluation.runners`` measures one set each.
"""
