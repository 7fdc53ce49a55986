"""Errors of the offline verifier.

VerifierError            base; retriable = False
└── WeightsError         the weights file is missing, unreadable or does not fit the features
"""

from __future__ import annotations

from typing import ClassVar


class VerifierError(Exception):
    """Base class of the offline verifier's errors."""

    retriable: ClassVar[bool] = False


class WeightsError(VerifierError):
    """The weights file is missing, malformed, or was trained on other features."""
