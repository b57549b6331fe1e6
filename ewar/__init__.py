"""Egyptian War: a deterministic, real-time Egyptian Ratscrew rules engine."""

__version__ = "1.0.0"
