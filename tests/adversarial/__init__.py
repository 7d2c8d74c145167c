"""Adversarial tests: hostile repositories, inputs and faults, per surface."""
