"""What every answer passes through, whatever the page: the page cache (caching.py),
compression (compression.py), security headers and limits (security.py); and the query
string as pages read it (query.py)."""
