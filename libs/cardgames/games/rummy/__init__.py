"""The rummy family: melds and the meld search shared by Burraco and Scala 40."""
