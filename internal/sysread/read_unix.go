//go:build unix

package sysread

import (
	"os"
	"syscall"
)

// ReadFile reads the file at path, refusing one of more than limit bytes
// (limit < 0: none) by its size before it is read. The buffer is the
// file's size, so a small file takes no page of its own.
func ReadFile(path string, limit int64) ([]byte, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	if limit >= 0 && st.Size > limit {
		return nil, &TooLargeError{Path: path, Size: st.Size}
	}
	buf := make([]byte, 0, st.Size+1) // +1: a read that fills it did not reach the end
	for {
		if len(buf) == cap(buf) { // it grew since the stat
			if limit >= 0 && int64(len(buf)) > limit {
				return nil, &TooLargeError{Path: path, Size: int64(len(buf))}
			}
			buf = append(buf, 0)[:len(buf)]
		}
		want := cap(buf) - len(buf)
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, &os.PathError{Op: "read", Path: path, Err: err}
		}
		buf = buf[:len(buf)+n]
		if n < want {
			// A regular file reads short only at its end: no second read
			// to find it.
			if limit >= 0 && int64(len(buf)) > limit {
				return nil, &TooLargeError{Path: path, Size: int64(len(buf))}
			}
			return buf, nil
		}
	}
}
