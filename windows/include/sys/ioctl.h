/* windows/include/sys/ioctl.h: the one ioctl gmpbench makes, the terminal's
 * width (TIOCGWINSZ), answered from the Windows console
 * (windows/compat.c). */
#ifndef GB_WINDOWS_SYS_IOCTL_H
#define GB_WINDOWS_SYS_IOCTL_H

#define TIOCGWINSZ 0x5413

struct winsize
{
  unsigned short ws_row, ws_col, ws_xpixel, ws_ypixel;
};

int ioctl (int fd, unsigned long request, ...);

#endif
