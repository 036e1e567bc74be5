"""What every answer passes through, whatever the page: the page cache (caching.py),
compression (compression.py), security headers and limits (security.py)."""
