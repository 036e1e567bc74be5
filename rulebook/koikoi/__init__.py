"""Koi-Koi (Hanafuda): the rulebook model, the scorer and the referee."""
from .model import Rulebook, load_rulebook
from .referee import referee
from .scoring import PileScore, score_pile

__all__ = ["PileScore", "Rulebook", "load_rulebook", "referee", "score_pile"]
