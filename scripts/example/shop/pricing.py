"""Prices and discounts."""

from __future__ import annotations

from dataclasses import dataclass, field


def apply_discount(amount: float, percent: float) -> float:
    """The amount after a percentage discount, never below zero."""
    return max(amount * (1 - percent / 100), 0.0)


@dataclass
class PriceBook:
    """Unit prices by SKU."""

    prices: dict[str, float] = field(default_factory=dict)

    def set_price(self, sku: str, price: float) -> None:
        """Record the unit price of a SKU."""
        if price < 0:
            raise ValueError(f"negative price for {sku}")
        self.prices[sku] = price

    def price_of(self, sku: str) -> float:
        """The unit price of a SKU."""
        return self.prices[sku]
