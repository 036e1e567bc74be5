"""The packages of the wheel: everything under rulebook/ and webapp/, and the catalogs.

The rest of the project's metadata is in pyproject.toml; setuptools reads both.
"""
from setuptools import find_packages, setup

setup(packages=[*find_packages(include=["rulebook*", "webapp*"]), "rulebook.translations"])
