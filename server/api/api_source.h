/* api_source.h: an upload's source, inside the API room (api_source.c). */
#ifndef GB_SERVER_API_SOURCE_H
#define GB_SERVER_API_SOURCE_H

#include "server/http/http.h"

/* The source of the upload R (store.h, "Sources") into OUT: the verified
 * publisher PUBLISHER_FINGERPRINT's when it is not NULL, else the
 * network of R's client address. */
void api_source_of (const struct http_request *r, const char *publisher_fingerprint,
                    char out[STORE_SOURCE_HEX]);

#endif
