"""The shedding family: Pika and Uno, on one deck and one way of laying cards."""
