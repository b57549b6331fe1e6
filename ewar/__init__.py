"""Egyptian War: a deterministic, real-time Egyptian Ratscrew rules engine."""

__version__ = "2.0.0"
