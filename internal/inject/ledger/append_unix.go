//go:build unix

package ledger

import (
	"errors"
	"fmt"
	"io"
	"syscall"
)

// appendLine appends line to path with the system calls alone (open, one
// write, fstat, close) and returns the file's size after it. os.OpenFile
// sets a regular file non-blocking, tries to register it with the network
// poller and undoes both: five calls more on every hook call. O_NOFOLLOW
// refuses a link in the file's place. A missing file or folder goes to
// appendFile, which makes them.
func appendLine(path string, line []byte) (int64, error) {
	fd, err := syscall.Open(path, syscall.O_WRONLY|syscall.O_APPEND|syscall.O_CLOEXEC|syscall.O_NOFOLLOW, 0)
	switch {
	case errors.Is(err, syscall.ENOENT):
		return appendFile(path, line)
	case errors.Is(err, syscall.ELOOP):
		return 0, fmt.Errorf("%s is a symbolic link", path)
	case err != nil:
		return 0, err
	}
	defer syscall.Close(fd)
	n, err := syscall.Write(fd, line)
	for errors.Is(err, syscall.EINTR) {
		n, err = syscall.Write(fd, line)
	}
	switch {
	case err != nil:
		return 0, err
	case n < len(line):
		return 0, io.ErrShortWrite
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return 0, err
	}
	return st.Size, nil
}
