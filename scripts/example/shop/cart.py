"""A shopping cart priced from a price book."""

from __future__ import annotations

from shop.pricing import PriceBook, apply_discount


class Cart:
    """Items a customer is about to buy."""

    def __init__(self, book: PriceBook) -> None:
        self.book = book
        self.items: dict[str, int] = {}

    def add(self, sku: str, quantity: int = 1) -> None:
        """Put `quantity` of a SKU in the cart."""
        self.items[sku] = self.items.get(sku, 0) + quantity

    def total(self, discount_percent: float = 0.0) -> float:
        """The cart's price after an optional discount."""
        subtotal = sum(self.book.price_of(sku) * n for sku, n in self.items.items())
        return apply_discount(subtotal, discount_percent)
