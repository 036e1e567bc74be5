"""The site's pages, one blueprint each: home and site pages (site.py), the rules pages and
search (rules.py, search.py), the checkers (checker.py); page meta and the page language."""
