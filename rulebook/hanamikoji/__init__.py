"""Hanamikoji: the rulebook model and the referee."""
from .model import Rulebook, load_rulebook
from .referee import referee

__all__ = ["Rulebook", "load_rulebook", "referee"]
