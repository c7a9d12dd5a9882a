"""Serves a folder on loopback with cross-origin isolation headers (COOP + COEP).

The frame-time benchmark needs them: in a page that is not cross-origin isolated, Chromium
coarsens performance.now() and requestAnimationFrame timestamps to 100 µs with random jitter,
so a steady 60 Hz stream of 16.667 ms frames reads as 16.5-16.8 ms deltas. Isolated, the
resolution is 5 µs.

usage: python3 serve_isolated.py PORT DIRECTORY
"""

import functools
import http.server
import sys


class IsolatedHandler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()

    def log_message(self, *args):
        pass


def main():
    port, root = int(sys.argv[1]), sys.argv[2]
    handler = functools.partial(IsolatedHandler, directory=root)
    http.server.ThreadingHTTPServer(("127.0.0.1", port), handler).serve_forever()


if __name__ == "__main__":
    main()
