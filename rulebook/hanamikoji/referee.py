def referee(*a, **k): raise NotImplementedError
