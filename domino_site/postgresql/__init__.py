"""Django's PostgreSQL backend with a cheaper check of pooled connections (`base`)."""
