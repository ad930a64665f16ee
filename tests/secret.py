"""The secret that signs the tokens of every service a test starts.

Random for each run: services refuse the development secret outside development, and a
test that passes must not depend on a secret anyone can read in the source.
"""

from __future__ import annotations

import secrets

TEST_TOKEN_SECRET = secrets.token_urlsafe(32)
