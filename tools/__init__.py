"""Operations tools (not shipped in the wheel): load, fault and HTTP benchmark drivers."""
