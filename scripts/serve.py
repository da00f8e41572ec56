#!/usr/bin/env python3
"""Serves the built book (site/, or $PGBOOK_ROOT) on 127.0.0.1, port $PGBOOK_PORT (default 8000).

Binds to loopback only. `.wasm` goes out as application/wasm (streaming compilation needs it),
and every response says `no-cache` so a rebuilt module is picked up on reload. Folders are
never listed; a path the file system cannot take (a NUL byte, undecodable bytes, a name too
long) gets a 400 answer instead of a dropped connection; and a connection that sends nothing
for a few seconds is closed, so idle or half-open connections cannot pile up and starve the
reader's requests. Text and wasm go out gzipped to a browser that accepts it, as any static
host sends them: a lesson's HTML is a sixth of its size, the whole core a third, which is what
a reader on a slow network (and Lighthouse's simulation of one) waits for.
"""
import email.utils
import functools
import gzip
import http.server
import io
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "site")
IDLE_TIMEOUT_S = float(os.environ.get("PGBOOK_IDLE_TIMEOUT", "5"))

# What the reader sees on an error page (the status line itself must stay ASCII).
RUSSIAN = {
    400: "Неверный адрес страницы.",
    404: "Такой страницы в книге нет.",
    405: "Этот сервер только отдаёт страницы книги.",
    408: "Запрос не пришёл целиком.",
    414: "Слишком длинный адрес.",
    431: "Слишком длинные заголовки запроса.",
    501: "Этот сервер только отдаёт страницы книги.",
}


# What is worth compressing (images and fonts are compressed already).
COMPRESSIBLE = {".html", ".js", ".mjs", ".css", ".svg", ".json", ".wasm", ".txt", ".webmanifest"}


@functools.lru_cache(maxsize=256)
def gzipped(path, mtime_ns, size):
    """The file's bytes gzipped, once per version of the file (mtime and size are the key)."""
    with open(path, "rb") as f:
        return gzip.compress(f.read(), compresslevel=6, mtime=0)


def accepts_gzip(header):
    """Whether an Accept-Encoding header takes gzip (`gzip;q=0` refuses it)."""
    for part in (header or "").split(","):
        name, _, params = part.partition(";")
        if name.strip().lower() not in ("gzip", "*"):
            continue
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        return q > 0
    return False


class Handler(http.server.SimpleHTTPRequestHandler):
    # Per socket operation: a connection silent this long is closed (StreamRequestHandler).
    timeout = IDLE_TIMEOUT_S
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
    error_content_type = "text/html; charset=utf-8"
    error_message_format = (
        '<!doctype html>\n<html lang="ru"><meta charset="utf-8"><title>Ошибка %(code)d — pgbook</title>\n'
        '<h1>Ошибка %(code)d</h1>\n<p>%(explain)s</p>\n<p><a href="/index.html">Оглавление книги</a></p>\n'
    )

    def send_error(self, code, message=None, explain=None):
        super().send_error(code, None, RUSSIAN.get(code, explain))

    def send_head(self):
        try:
            path = self.translate_path(self.path)
            if "\x00" in path:
                raise ValueError("NUL in path")
            path.encode(sys.getfilesystemencoding())  # undecodable %-escapes
            if os.path.isdir(path) and not os.path.isfile(os.path.join(path, "index.html")):
                self.send_error(404)
                return None
            if os.path.isdir(path) and self.path.split("?")[0].split("#")[0].endswith("/"):
                path = os.path.join(path, "index.html")
            if (
                os.path.isfile(path)
                and os.path.splitext(path)[1].lower() in COMPRESSIBLE
                and accepts_gzip(self.headers.get("Accept-Encoding"))
            ):
                return self.send_gzipped(path)
            return super().send_head()
        except (ValueError, UnicodeError):
            self.send_error(400)
            return None
        except OSError:  # e.g. a name longer than the file system allows
            self.send_error(404)
            return None

    def send_gzipped(self, path):
        st = os.stat(path)
        since = self.headers.get("If-Modified-Since")
        if since and "If-None-Match" not in self.headers:
            try:
                when = email.utils.parsedate_to_datetime(since)
            except (TypeError, IndexError, OverflowError, ValueError):
                when = None
            if when is not None and when.tzinfo is not None and int(st.st_mtime) <= when.timestamp():
                self.send_response(304)
                self.send_header("Vary", "Accept-Encoding")
                self.end_headers()
                return None
        body = gzipped(path, st.st_mtime_ns, st.st_size)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(st.st_mtime))
        self.end_headers()
        return io.BytesIO(body)

    def list_directory(self, path):
        self.send_error(404)
        return None

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, fmt, *args):
        if os.environ.get("PGBOOK_QUIET") != "1":
            super().log_message(fmt, *args)


class Server(http.server.ThreadingHTTPServer):
    # A burst of connections must not overflow the listen queue (the default holds 5).
    request_queue_size = 1024

    def handle_error(self, request, client_address):
        # A reader's browser that cancels a download (a closed tab, a new page) is not an error.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def main():
    port = int(os.environ.get("PGBOOK_PORT", "8000"))
    root = os.path.normpath(os.environ.get("PGBOOK_ROOT", ROOT))
    if not os.path.isfile(os.path.join(root, "index.html")):
        print(f"pgbook: {root} has no index.html: build the site first (scripts/serve.sh does)", file=sys.stderr)
        return 1
    handler = functools.partial(Handler, directory=root)
    server = Server(("127.0.0.1", port), handler)
    print(f"pgbook: serving the textbook at http://127.0.0.1:{server.server_port}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
