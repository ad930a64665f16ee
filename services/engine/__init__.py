"""The game engine service: tables as event-sourced streams, live per-seat views, timers,
bots and audit replay."""
