"""Shinpan's canonical rulebooks and the referee that enforces them (no Flask here)."""
