//go:build unix

package manifest

import (
	"math"
	"os"
	"syscall"
)

// load maps the file read-only: the hook then touches only the pages it
// reads (each page fault costs microseconds; reading the whole file into a
// fresh buffer would fault every page). The manifest is replaced by rename,
// never rewritten in place, so the mapped bytes never change under us.
// It uses the system calls directly: os.Open registers a regular file with
// the network poller and Fd() takes it back out, five wasted calls on a
// path that runs before every tool call.
func load(path string) ([]byte, func() error, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, nil, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Size < headerSize || st.Size > math.MaxUint32 {
		return nil, nil, errf("%s: %d bytes", path, st.Size)
	}
	data, err := syscall.Mmap(fd, 0, int(st.Size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, &os.PathError{Op: "mmap", Path: path, Err: err}
	}
	return data, func() error { return syscall.Munmap(data) }, nil
}
