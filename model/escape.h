/* escape.h: writing untrusted text into the markup of the report formats.
 *
 * A result document is input from anyone (CPU names, OS names, compiler
 * flags and skip reasons come from the machine that ran it, or from
 * whoever edited the file), so every string a renderer did not write
 * itself goes through one of these.  Control characters never reach the
 * output: each becomes a space. */
#ifndef GB_ESCAPE_H
#define GB_ESCAPE_H

#include <stdio.h>

/* Plain text for a terminal: control characters other than line feeds
 * become spaces, so a document cannot send escape sequences. */
void escape_text (FILE *f, const char *s);

/* HTML text and attribute values (also SVG): & < > " ' as references. */
void escape_html (FILE *f, const char *s);

/* A cell of a Markdown (GitHub) table: | and the characters that start
 * emphasis, links or code backslash-escaped; < > & as HTML references,
 * since Markdown renderers pass HTML through. */
void escape_markdown (FILE *f, const char *s);

/* One CSV field (RFC 4180): quoted when it holds a comma or a quote,
 * with quotes doubled; line breaks become spaces, so one record is one
 * line.  A field starting with = + - @ is prefixed
 * with ' so that spreadsheets do not evaluate it as a formula. */
void escape_csv (FILE *f, const char *s);

#endif
