/* Preloaded (LD_PRELOAD) by the full-disk test to play a file system without
 * fallocate (NFS v3, many FUSE and parallel file systems): fallocate fails
 * with EOPNOTSUPP, as the kernel answers there, so the library must reserve
 * space some other way or refuse the save. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>

int fallocate(int fd, int mode, off_t offset, off_t len) {
  (void)fd, (void)mode, (void)offset, (void)len;
  errno = EOPNOTSUPP;
  return -1;
}

int fallocate64(int fd, int mode, off64_t offset, off64_t len) {
  (void)fd, (void)mode, (void)offset, (void)len;
  errno = EOPNOTSUPP;
  return -1;
}
