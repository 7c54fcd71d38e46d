#!/usr/bin/env python3
# http-edges.py: HTTP at the edges, spoken over raw sockets (curl hides
# what is checked here), against a gmpbench-server on 127.0.0.1.
#
#   http-edges.py edges PORT LABEL
#       oversized bodies sent without waiting for "100 Continue", framing
#       (RFC 9112 section 6), and the statuses libmicrohttpd answers itself
#   http-edges.py rate PORT LABEL
#       a 429 over a keep-alive connection, with a body sent without
#       waiting (the server allows one request per address)
#   http-edges.py drain PORT PID LABEL LOG OUT DOC...
#       uploads the signed documents DOC (signature in DOC.sig) over and
#       over on four keep-alive connections, sends SIGTERM to PID once a
#       quarter of them are answered, and writes the ids answered 201 to
#       OUT; every client must end (the server closes its connection), and
#       requests sent after the server logged (in LOG) that it drains are
#       answered with Connection: close, one per connection
#   http-edges.py stall PORT PID LABEL
#       an upload whose body never ends, then SIGTERM
#   http-edges.py idle PORT PID LABEL DOC
#       SIGTERM while a keep-alive connection is idle and another one is
#       uploading DOC: the idle one is closed at once, the upload answered
#
# Each check prints one PASS: or FAIL: line.  Waits are bounded (a socket
# timeout); no verdict depends on how fast anything is.
import http.client, itertools, json, os, signal, socket, sys, threading

TIMEOUT = 60
failures = 0


def report(ok, what):
    global failures
    print(("PASS: " if ok else "FAIL: ") + what, flush=True)
    failures += not ok


class Response:
    def __init__(self, status, headers, body, closed):
        self.status, self.headers, self.body, self.closed = status, headers, body, closed

    def rule(self):
        try:
            return json.loads(self.body).get("rule")
        except ValueError:
            return None

    def closes(self):
        return self.headers.get("connection", "").lower() == "close"


class Connection:
    """One TCP connection; requests are bytes written as given."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        self.buf = b""

    def send(self, data):
        self.sock.sendall(data)

    def _fill(self):
        data = self.sock.recv(65536)
        self.buf += data
        return bool(data)

    def read_response(self):
        """The next response, or None when the server closed first."""
        while b"\r\n\r\n" not in self.buf:
            if not self._fill():
                return None
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {}
        for line in lines[1:]:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
        if status == 100:
            return self.read_response()
        length = int(headers.get("content-length", "-1"))
        while length >= 0 and len(self.buf) < length:
            if not self._fill():
                break
        if length < 0:
            while self._fill():
                pass
            length = len(self.buf)
        body, self.buf = self.buf[:length], self.buf[length:]
        return Response(status, headers, body.decode("utf-8", "replace"), False)

    def read_continue(self):
        """Whether the server said "100 Continue": it has read the headers
        and called its handler, so the request is under way."""
        while b"\r\n\r\n" not in self.buf:
            if not self._fill():
                return False
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        return head.split()[1] == b"100"

    def closed_by_server(self):
        """Whether the server closes the connection (bounded wait)."""
        try:
            return not self.buf and not self._fill()
        except ConnectionResetError:
            return True
        except socket.timeout:
            return False

    def close(self):
        self.sock.close()


def request(method, path, headers=(), body=b"", version="HTTP/1.1"):
    head = "%s %s %s\r\nHost: 127.0.0.1\r\n" % (method, path, version)
    head += "".join("%s: %s\r\n" % h for h in headers)
    return head.encode("latin-1") + b"\r\n" + body


def chunked(body, size=65536):
    out = b""
    for i in range(0, len(body), size):
        part = body[i:i + size]
        out += b"%x\r\n" % len(part) + part + b"\r\n"
    return out + b"0\r\n\r\n"


UPLOAD = [("Content-Type", "application/json"), ("Gmpbench-Signature", "eA==")]


def exchange(port, data, expect_more=False):
    """Sends DATA on a new connection; the first response and whether the
    server then closed the connection."""
    c = Connection(port)
    try:
        c.send(data)
        r = c.read_response()
        closed = r is not None and not expect_more and c.closed_by_server()
        return r, closed, c
    except (ConnectionResetError, BrokenPipeError) as e:
        return Response(0, {}, str(e), True), True, c


def expect(label, what, r, status, rule, closed=None, must_close=True):
    ok = r is not None and r.status == status and r.rule() == rule
    ok = ok and (not must_close or (r.closes() and closed))
    got = "nothing" if r is None else "%d %s%s" % (
        r.status, r.rule(), ", Connection: close" if r.closes() else "")
    report(ok, "%s: %s: %d %s%s (got %s)" % (
        label, what, status, rule, " and the connection closed" if must_close else "", got))


def oversized(port, label):
    for size in (1100 * 1000, 2 << 20, 8 << 20):
        body = b"x" * size
        r, closed, c = exchange(port, request("POST", "/api/v1/results", UPLOAD + [
            ("Content-Length", str(size))], body))
        c.close()
        expect(label, "a %d-byte body sent without waiting for 100 Continue is read whole and "
               "answered" % size, r, 413, "too-large", closed)
    # http.client, the library the problem was seen with.
    h = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        h.request("POST", "/api/v1/results", body=b"x" * (1100 * 1000),
                  headers=dict(UPLOAD))
        resp = h.getresponse()
        got = (resp.status, json.loads(resp.read()).get("rule"))
    except OSError as e:
        got = (0, str(e))
    h.close()
    report(got == (413, "too-large"),
           "%s: Python's http.client reads the 413 of a 1.1 MB body (got %s)" % (label, got))
    r, closed, c = exchange(port, request("POST", "/api/v1/results", UPLOAD + [
        ("Content-Length", str(5 << 20)), ("Expect", "100-continue")]))
    c.close()
    expect(label, "an announced 5 MiB body with Expect: 100-continue is refused before it is "
           "sent", r, 413, "too-large", closed)
    r, closed, c = exchange(port, request("POST", "/api/v1/results", UPLOAD + [
        ("Transfer-Encoding", "chunked")], chunked(b"x" * (3 << 19))))
    c.close()
    expect(label, "a chunked body over 1 MiB is read whole and answered", r, 413, "too-large",
           closed)


def framing(port, label):
    cases = [
        ("Transfer-Encoding: gzip (the final coding is not chunked)",
         [("Transfer-Encoding", "gzip")], b"abc", "HTTP/1.1", 400, "framing"),
        ("Transfer-Encoding: chunked, gzip", [("Transfer-Encoding", "chunked, gzip")],
         b"abc", "HTTP/1.1", 400, "framing"),
        ("Transfer-Encoding: gzip, chunked (a coding other than chunked)",
         [("Transfer-Encoding", "gzip, chunked")], chunked(b"abc"), "HTTP/1.1", 501,
         "transfer-coding"),
        ("Transfer-Encoding in HTTP/1.0", [("Transfer-Encoding", "chunked")],
         chunked(b"abc"), "HTTP/1.0", 400, "framing"),
        ("two different Content-Length fields",
         [("Content-Length", "3"), ("Content-Length", "4")], b"abcd", "HTTP/1.1", 400,
         "framing"),
    ]
    for what, headers, body, version, status, rule in cases:
        r, closed, c = exchange(port, request("POST", "/api/v1/results", UPLOAD + headers, body,
                                              version))
        c.close()
        expect(label, what, r, status, rule, closed)
    # Content-Length with chunked, and a second request behind it: the
    # smuggling pattern.  One answer, then the connection is closed.
    body = chunked(b"{}")
    data = request("POST", "/api/v1/results", UPLOAD + [
        ("Content-Length", str(len(body))), ("Transfer-Encoding", "chunked")], body)
    r, closed, c = exchange(port, data + request("GET", "/healthz"))
    c.close()
    expect(label, "Content-Length together with Transfer-Encoding, a request pipelined "
           "behind it", r, 400, "framing", closed)


def limits(port, label):
    c = Connection(port)
    c.send(request("GET", "/healthz") + request("GET", "/healthz"))
    first, second = c.read_response(), c.read_response()
    c.close()
    report(first is not None and second is not None and first.status == second.status == 200
           and not first.closes(),
           "%s: two requests on one keep-alive connection are both answered" % label)
    r, closed, c = exchange(port, request("GET", "/healthz", [("X-Big", "a" * 70000)]))
    c.close()
    report(r is not None and r.status == 431,
           "%s: a header block over 64 KiB answers 431 (got %s)" % (
               label, r and r.status))
    r, closed, c = exchange(port, request("GET", "/healthz", version="HTTP/2.0"))
    c.close()
    report(r is not None and r.status == 505,
           "%s: an HTTP version other than 1.x answers 505 (got %s)" % (label, r and r.status))


def rate_limited(port, label):
    """With a burst of one request per address, used up by the first
    request here (or before): an upload sent without waiting gets a 429 it
    can read, and the connection stays usable (its body was read)."""
    c = Connection(port)
    c.send(request("GET", "/healthz"))
    first = c.read_response()
    body = b"x" * (512 * 1024)
    try:
        c.send(request("POST", "/api/v1/results", UPLOAD + [
            ("Content-Length", str(len(body)))], body))
        refused = c.read_response()
        c.send(request("GET", "/healthz"))
        after = c.read_response()
    except OSError:
        refused = after = None
    c.close()
    report(first is not None and refused is not None
           and refused.status == 429 and refused.rule() == "rate-limit"
           and "retry-after" in refused.headers,
           "%s: an upload over the address's rate, sent without waiting, reads its 429 with "
           "Retry-After (got %s)" % (label, refused and refused.status))
    report(after is not None and after.status == 429,
           "%s: after a 429 the keep-alive connection goes on (the refused body was read)" % label)


# ------------------------------------------------------------ draining

def drain_lines(log):
    """How many times the server's log (shared by every server the test
    started) says a server began to drain."""
    with open(log) as f:
        return f.read().count('"message":"draining:')


def draining_began(log, before):
    """Waits (bounded) for one more such line than BEFORE."""
    for _ in range(TIMEOUT * 10):
        if drain_lines(log) > before:
            return True
        threading.Event().wait(0.1)
    return False


class Uploads:
    """What the clients saw: (status, id, Connection: close?, sent after
    the drain began?) per answer, and answers per connection after it."""

    def __init__(self, want):
        self.lock = threading.Lock()
        self.answers = []
        self.progress = threading.Event()
        self.want = want
        self.draining = threading.Event()
        self.late_per_connection = []

    def add(self, status, body, closes, late):
        with self.lock:
            ident = json.loads(body).get("id") if status in (200, 201) else None
            self.answers.append((status, ident, closes, late))
            if len(self.answers) >= self.want:
                self.progress.set()


def upload_all(port, docs, uploads):
    """Uploads DOCS in turn, over and over (200 after the first time),
    over keep-alive connections, until a request gets no answer or a new
    connection is refused: only draining ends this."""
    c, late = None, 0
    for doc in itertools.cycle(docs):
        body = open(doc, "rb").read()
        sig = open(doc + ".sig").read().strip()
        data = request("POST", "/api/v1/results", [
            ("Content-Type", "application/json"), ("Gmpbench-Signature", sig),
            ("Content-Length", str(len(body)))], body)
        sent_late = uploads.draining.is_set()
        try:
            if c is None:
                c, late = Connection(port), 0
            c.send(data)
            r = c.read_response()
        except OSError:
            r = None
        if r is None:
            break
        late += sent_late
        uploads.add(r.status, r.body, r.closes(), sent_late)
        if r.closes():
            c.close()
            uploads.late_per_connection.append(late)
            c = None
    if c is not None:
        c.close()
        uploads.late_per_connection.append(late)


def drain(port, pid, label, log, out, docs):
    uploads = Uploads(max(1, len(docs) // 4))
    threads = [threading.Thread(target=upload_all, args=(port, docs[k::4], uploads))
               for k in range(4)]
    for t in threads:
        t.start()
    uploads.progress.wait(TIMEOUT)
    before = drain_lines(log)
    os.kill(pid, signal.SIGTERM)
    report(draining_began(log, before), "%s: SIGTERM: the server logs that it drains" % label)
    uploads.draining.set()
    for t in threads:
        t.join(TIMEOUT)
    report(not any(t.is_alive() for t in threads),
           "%s: SIGTERM under keep-alive uploads: the server ends every connection" % label)
    answers = uploads.answers
    late = [a for a in answers if a[3]]
    report(all(closes for status, ident, closes, sent_late in late),
           "%s: every request sent once draining began is answered with Connection: close "
           "(%d such answers)" % (label, len(late)))
    report(max(uploads.late_per_connection, default=0) <= 1,
           "%s: no connection answers a second request once draining began (%s)" % (
               label, uploads.late_per_connection))
    statuses = sorted(set(a[0] for a in answers))
    report(set(statuses) <= {200, 201},
           "%s: SIGTERM under keep-alive uploads: every answer is 201, or 200 for a document "
           "sent again (%s)" % (label, statuses))
    created = set(ident for status, ident, closes, sent_late in answers if status == 201)
    again = set(ident for status, ident, closes, sent_late in answers if status == 200)
    report(again <= created, "%s: SIGTERM under keep-alive uploads: a document answered 200 "
           "was answered 201 before" % label)
    with open(out, "w") as f:
        f.write("".join(i + "\n" for i in sorted(created)))


def stall(port, pid, label):
    """An upload whose body never ends, and SIGTERM: the drain limit passes,
    the connection is dropped."""
    c = Connection(port)
    c.send(request("POST", "/api/v1/results", UPLOAD + [
        ("Content-Length", "1000"), ("Expect", "100-continue")]))
    under_way = c.read_continue()
    c.send(b"{")
    os.kill(pid, signal.SIGTERM)
    report(under_way and c.closed_by_server(),
           "%s: an upload whose body never ends is dropped when the drain limit passes" % label)
    c.close()


def idle_and_busy(port, pid, label, doc):
    """SIGTERM while one keep-alive connection is idle and another is in
    the middle of an upload (the test holds back the rest of the body)."""
    body = open(doc, "rb").read()
    sig = open(doc + ".sig").read().strip()
    busy = Connection(port)
    busy.send(request("POST", "/api/v1/results", [
        ("Content-Type", "application/json"), ("Gmpbench-Signature", sig),
        ("Content-Length", str(len(body))), ("Expect", "100-continue")]))
    report(busy.read_continue(), "%s: an upload is under way (100 Continue)" % label)
    busy.send(body[:len(body) // 2])
    idle = Connection(port)
    idle.send(request("GET", "/healthz"))
    r = idle.read_response()
    report(r is not None and r.status == 200 and not r.closes(),
           "%s: a keep-alive connection stays open after its answer" % label)
    os.kill(pid, signal.SIGTERM)
    report(idle.closed_by_server(),
           "%s: SIGTERM closes an idle keep-alive connection at once, while an upload is "
           "still arriving on another" % label)
    idle.close()
    busy.send(body[len(body) // 2:])
    r = busy.read_response()
    report(r is not None and r.status == 201 and r.closes() and busy.closed_by_server(),
           "%s: the upload in progress at SIGTERM is answered 201 with Connection: close, "
           "then its connection closed (got %s)" % (label, r and (r.status, r.closes())))
    busy.close()


def main(argv):
    what, port = argv[1], int(argv[2])
    if what == "edges":
        oversized(port, argv[3])
        framing(port, argv[3])
        limits(port, argv[3])
    elif what == "rate":
        rate_limited(port, argv[3])
    elif what == "drain":
        drain(port, int(argv[3]), argv[4], argv[5], argv[6], argv[7:])
    elif what == "stall":
        stall(port, int(argv[3]), argv[4])
    elif what == "idle":
        idle_and_busy(port, int(argv[3]), argv[4], argv[5])
    return 1 if failures else 0


sys.exit(main(sys.argv))
