"""A tiny shop backend."""

from shop.cart import Cart
from shop.pricing import PriceBook

__all__ = ["Cart", "PriceBook"]
