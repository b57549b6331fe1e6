"""Egyptian War: a deterministic, real-time Egyptian Ratscrew rules engine."""

__version__ = "4.0.0"
