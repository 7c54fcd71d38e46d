/* windows/include/fnmatch.h: POSIX fnmatch for the Windows build, which
 * has none (implemented in windows/compat.c: '*', '?' and bracket
 * expressions, no flags). */
#ifndef GB_WINDOWS_FNMATCH_H
#define GB_WINDOWS_FNMATCH_H

#define FNM_NOMATCH 1

int fnmatch (const char *pattern, const char *string, int flags);

#endif
