"""The lobby's commands: ``tavolo account``, ``room``, ``coins``, ``lobby``, ``tournament``."""
