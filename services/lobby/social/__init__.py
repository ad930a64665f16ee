"""Chat, moderation and conduct: what players say and how the platform answers misconduct."""
