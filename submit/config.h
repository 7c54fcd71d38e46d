/* config.h: where the client keeps its files, and which server it talks to.
 *
 * Two per-user directories, following the XDG base directory spec on Unix
 * and the platform's convention on macOS and Windows:
 *   configuration  $XDG_CONFIG_HOME/gmpbench  (~/.config/gmpbench,
 *                  ~/Library/Application Support/gmpbench on macOS,
 *                  %APPDATA%\gmpbench on Windows):
 *                  the signing key (key.pem) and the config file (config);
 *   data           $XDG_DATA_HOME/gmpbench    (~/.local/share/gmpbench, the
 *                  same directory as the configuration on macOS and
 *                  Windows): the spool.
 * An XDG variable holding an absolute path is honoured on every system.
 *
 * The config file is lines of `NAME = VALUE`; `#` starts a comment line.
 * Known names: `server` (the upload server) and `name` (the display name
 * that travels with results).  Unknown names are kept when the file is
 * rewritten, so a newer client's settings survive an older one. */
#ifndef GB_SUBMIT_CONFIG_H
#define GB_SUBMIT_CONFIG_H

#include <stddef.h>

/* The server used when nothing else names one. */
#define CONFIG_DEFAULT_SERVER "https://gmpbench.org"

/* malloc'ed "BASE/gmpbench" for the configuration ('c') or data ('d')
 * directory, or NULL with a message in ERR when neither the XDG variable
 * nor HOME (APPDATA on Windows) gives an absolute path. */
char *config_dir (int which, char *err, size_t errlen);

/* Like config_dir, and creates the directory (mode 0700) when it is
 * missing.  Of the base (the XDG variable's directory, HOME or APPDATA)
 * only the standard subdirectories ~/.config, ~/.local/share are created:
 * a base that does not exist is an error, not something to invent. */
char *config_make_dir (int which, char *err, size_t errlen);

/* The value of NAME in the config file, malloc'ed, or NULL when the file
 * or the setting is absent.  A file that exists but cannot be read is an
 * error: -1 with a message in ERR (VALUE untouched). */
int config_get (const char *name, char **value, char *err, size_t errlen);

/* Sets NAME to VALUE in the config file (VALUE NULL or "": removes it),
 * rewriting the file atomically.  0, or -1 with a message in ERR. */
int config_set (const char *name, const char *value, char *err, size_t errlen);

/* The server URL: CLI (--server) if not NULL, else $GMPBENCH_SERVER, else
 * the config file's `server`, else CONFIG_DEFAULT_SERVER.  Trailing
 * slashes are dropped.  *ORIGIN names where it came from.  malloc'ed, or
 * NULL with a message in ERR (unreadable config file, a URL that is not
 * http:// or https://). */
char *config_server (const char *cli, const char **origin, char *err, size_t errlen);

#endif
