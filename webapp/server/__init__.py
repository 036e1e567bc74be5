"""Serving the site: the WSGI and ASGI entries (wsgi.py, asgi.py), the production server
(serve.py: granian, configured from the environment) and its helpers (deployment.py)."""
