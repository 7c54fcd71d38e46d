/* config.h: where the client keeps its files, and which server it talks to.
 *
 * Three per-user directories, following the XDG base directory spec on
 * Unix and the platform's convention on macOS and Windows:
 *   configuration  $XDG_CONFIG_HOME/gmpbench  (~/.config/gmpbench,
 *                  ~/Library/Application Support/gmpbench on macOS,
 *                  %APPDATA%\gmpbench on Windows):
 *                  the signing key (key.pem) and the config file (config);
 *   data           $XDG_DATA_HOME/gmpbench    (~/.local/share/gmpbench, the
 *                  same directory as the configuration on macOS and
 *                  Windows): the spool;
 *   state          $XDG_STATE_HOME/gmpbench   (~/.local/state/gmpbench, the
 *                  same directory as the configuration on macOS and
 *                  Windows): the servers consented to (consent.h).
 * An XDG variable holding an absolute path is honoured on every system;
 * when the directory it names does not exist, it is created (mode 0700,
 * with its missing parents), as the spec asks.
 *
 * The config file is lines of `NAME = VALUE`; `#` starts a comment line.
 * Known names: `server` (the upload server), `name` (the display name
 * that travels with results) and `consent` (consent.h).  Unknown names are
 * kept when the file is rewritten, so a newer client's settings survive
 * an older one.
 *
 * There is no built-in server unless the build names one
 * (./configure --with-default-server=URL, GB_DEFAULT_SERVER of
 * build_config.h): without one, uploads need a server set. */
#ifndef GB_SUBMIT_CONFIG_H
#define GB_SUBMIT_CONFIG_H

#include <stddef.h>

/* Where the server came from, for config_server's *ORIGIN. */
#define CONFIG_ORIGIN_CLI "--server"
#define CONFIG_ORIGIN_ENV "the environment variable GMPBENCH_SERVER"
#define CONFIG_ORIGIN_FILE "the config file's 'server'"
#define CONFIG_ORIGIN_BUILD "the build's default (./configure --with-default-server)"

/* malloc'ed "BASE/gmpbench" for the configuration ('c'), data ('d') or
 * state ('s') directory, or NULL with a message in ERR when neither the
 * XDG variable nor HOME (APPDATA on Windows) gives an absolute path. */
char *config_dir (int which, char *err, size_t errlen);

/* Like config_dir, and creates the directory (mode 0700) when it is
 * missing.  A base named by an XDG variable is created too, with its
 * missing parents (mode 0700); of HOME or APPDATA only the standard
 * subdirectories (~/.config, ~/.local/share, ~/.local/state) are: a home
 * directory that does not exist is an error, not something to invent. */
char *config_make_dir (int which, char *err, size_t errlen);

/* malloc'ed "DIR/NAME", DIR the directory WHICH of config_dir (of
 * config_make_dir when MAKE), or NULL with a message in ERR. */
char *config_path_in (int which, int make, const char *name, char *err, size_t errlen);

/* malloc'ed path of the config file (which need not exist), or NULL with
 * a message in ERR. */
char *config_file_path (char *err, size_t errlen);

/* The whole file PATH (the config file, the consent file), malloc'ed and
 * NUL-terminated; "" when it does not exist; NULL with a message in ERR
 * when it cannot be read. */
char *config_read_text (const char *path, char *err, size_t errlen);

/* The value of NAME in the config file, malloc'ed, or NULL when the file
 * or the setting is absent.  A file that exists but cannot be read is an
 * error: -1 with a message in ERR (VALUE untouched). */
int config_get (const char *name, char **value, char *err, size_t errlen);

/* Sets NAME to VALUE in the config file (VALUE NULL or "": removes it),
 * rewriting the file atomically.  0, or -1 with a message in ERR. */
int config_set (const char *name, const char *value, char *err, size_t errlen);

/* The server URL: CLI (--server) if not NULL, else $GMPBENCH_SERVER, else
 * the config file's `server`, else the build's default (when configure was
 * given one).  Trailing slashes are dropped.  *ORIGIN names where it came
 * from (CONFIG_ORIGIN_*).  malloc'ed, or NULL with a message in ERR: no
 * server set anywhere (*ORIGIN NULL, and ERR says how to set one), an
 * unreadable config file, a URL that is not http:// or https://. */
char *config_server (const char *cli, const char **origin, char *err, size_t errlen);

#endif
