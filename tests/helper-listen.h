/* helper-listen.h: what the network helpers of the tests share (the
 * scripted responder helper-httpd.c and the TLS terminator
 * helper-tlsproxy.c): a listening socket on 127.0.0.1, on a port the
 * system chooses, announced to the test script through a file. */
#ifndef GB_HELPER_LISTEN_H
#define GB_HELPER_LISTEN_H

/* Listens on 127.0.0.1 on a free port and writes that port, a line, to
 * PORTFILE once connections are accepted; the socket, or -1 after a
 * message on stderr that starts with WHO. */
int helper_listen (const char *portfile, const char *who);

#endif
