"""Bots of Burraco and Scala 40: the memory of discards and the outs they share."""
