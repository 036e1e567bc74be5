def referee(*a, **k): return {}
