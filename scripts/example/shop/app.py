"""The request handler that ties the shop together."""

from __future__ import annotations

from shop.cart import Cart
from shop.middleware.rate_limit import RateLimiter
from shop.pricing import PriceBook

LIMITER = RateLimiter(limit=5)


def checkout(client: str, skus: list[str], book: PriceBook) -> float:
    """Price a checkout for a client, refusing clients over their rate limit."""
    if not LIMITER.allow(client):
        raise PermissionError(f"{client} is over the rate limit")
    cart = Cart(book)
    for sku in skus:
        cart.add(sku)
    return cart.total()
