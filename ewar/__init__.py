"""Egyptian War: a deterministic, real-time Egyptian Ratscrew rules engine."""

__version__ = "5.0.0"
