"""Egyptian War: a deterministic, real-time Egyptian Ratscrew rules engine."""

__version__ = "3.1.0"
