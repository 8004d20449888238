"""The cross-engine suite: Chromium, Firefox and WebKit behind one Tab interface."""
