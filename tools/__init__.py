"""The project's own build and development tools (never shipped to players)."""
