"""Request middleware."""
