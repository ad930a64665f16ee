"""The secret that signs the tokens of every service a test starts, and the key that
signs their log checkpoints.

Random for each run: services refuse the development secret and key outside development,
and a test that passes must not depend on a secret anyone can read in the source.
"""

from __future__ import annotations

import secrets

TEST_TOKEN_SECRET = secrets.token_urlsafe(32)
TEST_CHECKPOINT_KEY = secrets.token_hex(32)
