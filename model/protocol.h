/* protocol.h: the constants of docs/protocol.md that the client and the
 * server must spell alike: the document format, the upload's signature
 * header, the message a retraction signs, the results API path and the
 * sizes of Ed25519 keys and signatures. */
#ifndef GB_PROTOCOL_H
#define GB_PROTOCOL_H

/* The "format" member of every result document. */
#define PROTOCOL_FORMAT "gmpbench-result/1"

/* The header carrying the base64 signature of an upload's body. */
#define PROTOCOL_SIGNATURE_HEADER "Gmpbench-Signature"

/* A retraction signs this prefix followed by the result's id. */
#define PROTOCOL_RETRACT_PREFIX "gmpbench-retract:"

/* Uploads go to this path; a result is at PATH/ID, its retraction at
 * PATH/ID/retract. */
#define PROTOCOL_RESULTS_PATH "/api/v1/results"

/* The leaderboard's view as data (JSON, CSV): the API's addresses of what
 * the home page's format=json and format=csv were. */
#define PROTOCOL_LEADERBOARD_PATH "/api/v1/leaderboard"
#define PROTOCOL_LEADERBOARD_CSV_PATH "/api/v1/leaderboard.csv"

/* Raw Ed25519 public keys and signatures (RFC 8032). */
#define PROTOCOL_KEY_BYTES 32
#define PROTOCOL_SIGNATURE_BYTES 64

#endif
