#!/usr/bin/env python3
"""Serves www/ on 127.0.0.1 (port from $PGBOOK_PORT, default 8000) with the right MIME types.

Binds to loopback only. `.wasm` goes out as application/wasm (streaming compilation needs it),
and every response says `no-cache` so a rebuilt module is picked up on reload.
"""
import functools
import http.server
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "www")


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".css": "text/css",
        ".svg": "image/svg+xml",
        ".json": "application/json",
        ".woff2": "font/woff2",
    }

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, fmt, *args):
        if os.environ.get("PGBOOK_QUIET") != "1":
            super().log_message(fmt, *args)


def main():
    port = int(os.environ.get("PGBOOK_PORT", "8000"))
    handler = functools.partial(Handler, directory=os.path.normpath(ROOT))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    print(f"pgbook: serving the textbook at http://127.0.0.1:{server.server_port}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
